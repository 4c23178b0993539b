/* Every function and variable that the device runtime defines for code
   compiled with glibc's headers, referenced from a target region with
   glibc's own declarations.  ptx-valid then links the PTX with nvlink,
   which rejects any definition whose parameters or result differ from
   what the caller was compiled against.  */

/* { dg-do run } */
/* { dg-options "-O2 -D_GNU_SOURCE -fopenmp -foffload=nvptx-none" } */

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int
main (void)
{
  int n = 0;
#pragma omp target map(from: n)
  {
    void *volatile refs[] = {
      (void *) open, (void *) open64, (void *) creat, (void *) creat64,
      (void *) close, (void *) read, (void *) write, (void *) lseek,
      (void *) lseek64, (void *) fstat, (void *) fstat64, (void *) stat,
      (void *) stat64, (void *) lstat, (void *) lstat64, (void *) unlink,
      (void *) rename, (void *) isatty, (void *) fsync, (void *) access,
      (void *) mkdir, (void *) gettimeofday, (void *) clock_gettime,
      (void *) fopen64, (void *) freopen64, (void *) tmpfile64,
      (void *) fseeko64, (void *) ftello64, (void *) fgetpos64,
      (void *) fsetpos64, (void *) mkstemp64, (void *) mkstemps64,
      (void *) mkostemp64, (void *) mkostemps64, (void *) fscanf,
      (void *) scanf, (void *) sscanf, (void *) vfscanf, (void *) vscanf,
      (void *) vsscanf, (void *) __errno_location, (void *) __assert_fail,
      (void *) __ctype_get_mb_cur_max, (void *) &stdin, (void *) &stdout,
      (void *) &stderr
    };
    for (unsigned i = 0; i < sizeof refs / sizeof refs[0]; i++)
      n += refs[i] != 0;
  }
  return n != 46;
}

/* { dg-final { ptx-valid } } */

/* Unit test: the host ABI constants and struct layout that the nvptx
   device runtime writes down by hand (libgomp/config/nvptx/glibc-abi.h)
   must equal what this host's glibc headers say.  Target-region code is
   compiled with these headers, so any difference is a wrong flag, errno
   or stat field on the device.  Prints one PASS/FAIL line per check.  */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include "glibc-abi.h"

static int failures;

static void
check (const char *what, long long device, long long host)
{
  if (device == host)
    printf ("PASS: glibc-abi %s\n", what);
  else
    {
      printf ("FAIL: glibc-abi %s: device runtime has %lld, host %lld\n",
	      what, device, host);
      failures++;
    }
}

#define SAME(NAME) check (#NAME, HOST_##NAME, NAME)
#define FIELD(F) \
  check ("offsetof st_" #F, offsetof (struct host_stat, st_##F), \
	 offsetof (struct stat, st_##F)); \
  check ("sizeof st_" #F, sizeof ((struct host_stat *) 0)->st_##F, \
	 sizeof ((struct stat *) 0)->st_##F)

int
main (void)
{
  SAME (EPERM); SAME (ENOENT); SAME (EIO); SAME (EBADF); SAME (ENOMEM);
  SAME (EFAULT); SAME (EEXIST); SAME (ENOTDIR); SAME (EISDIR);
  SAME (EINVAL); SAME (EMFILE); SAME (ENOTTY); SAME (EFBIG); SAME (ENOSPC);
  SAME (ESPIPE); SAME (EROFS); SAME (ERANGE); SAME (ENAMETOOLONG);
  SAME (ENOSYS); SAME (EOVERFLOW);

  SAME (O_ACCMODE); SAME (O_RDONLY); SAME (O_WRONLY); SAME (O_RDWR);
  SAME (O_CREAT); SAME (O_EXCL); SAME (O_NOCTTY); SAME (O_TRUNC);
  SAME (O_APPEND); SAME (O_NONBLOCK); SAME (O_SYNC); SAME (O_DIRECTORY);
  SAME (O_NOFOLLOW); SAME (O_CLOEXEC);

  SAME (S_IFMT); SAME (S_IFCHR); SAME (S_IFREG);

  check ("sizeof struct stat", sizeof (struct host_stat),
	 sizeof (struct stat));
  FIELD (dev); FIELD (ino); FIELD (nlink); FIELD (mode); FIELD (uid);
  FIELD (gid); FIELD (rdev); FIELD (size); FIELD (blksize); FIELD (blocks);
  FIELD (atim); FIELD (mtim); FIELD (ctim);
  /* <ctype.h>'s tables, against glibc's own for the "C" locale.  */
  {
    const unsigned short *b = *__ctype_b_loc ();
    const int *lo = *__ctype_tolower_loc (), *up = *__ctype_toupper_loc ();
    int c, bad = 0;
    for (c = -128; c < 256; c++)
      if (host_ctype_bits (c) != b[c] || host_tolower (c) != lo[c]
	  || host_toupper (c) != up[c])
	{
	  if (!bad)
	    printf ("first ctype difference at %d: bits %#x vs %#x\n", c,
		    host_ctype_bits (c), b[c]);
	  bad++;
	}
    check ("ctype tables (-128..255)", bad, 0);
  }
  return failures != 0;
}

/* <ctype.h> in a target region: glibc's macros read its class tables
   through __ctype_b_loc and friends, which the device runtime provides.  */

/* { dg-do run } */

#include <ctype.h>
#include <stdio.h>

int
main (void)
{
  char s[] = "Host 42 services!\t";
  int alpha = 0, digit = 0, space = 0, punct = 0, upper = 0;
#pragma omp target map(tofrom: s, alpha, digit, space, punct, upper)
  for (int i = 0; s[i]; i++)
    {
      alpha += isalpha ((unsigned char) s[i]) != 0;
      digit += isdigit ((unsigned char) s[i]) != 0;
      space += isspace ((unsigned char) s[i]) != 0;
      punct += ispunct ((unsigned char) s[i]) != 0;
      s[i] = toupper ((unsigned char) s[i]);
      upper += isupper ((unsigned char) s[i]) != 0;
    }
  printf ("%s| alpha=%d digit=%d space=%d punct=%d upper=%d\n", s, alpha,
	  digit, space, punct, upper);
  return !(alpha == 12 && digit == 2 && space == 3 && punct == 1
	   && upper == 12);
}

/* { dg-output "HOST 42 SERVICES!\t\\| alpha=12 digit=2 space=3 punct=1 upper=12" } */
/* { dg-final { ptx-valid } } */

/* As hs-oacc-lanes-1.c, with fewer host-service ports (16) than lanes in
   a warp: the lanes that get no port back off and retry, and the lanes
   that got one finish their call before the warp goes on.  */

/* { dg-do run } */

#define TAG "2"
#define PORTS "16"
#include "hs-oacc-lanes-1.c"

/* { dg-output "((lane line \[0-9\]\[0-9\]\[0-9\] of 256\r?\n){128}){2}" } */
/* { dg-output "lanes=256 bad=0" } */
/* { dg-final { ptx-valid } } */

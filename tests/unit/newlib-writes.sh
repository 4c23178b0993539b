#!/bin/sh
# newlib-0003: stdio's writes on nvptx.  In both multilibs' libc.a:
# __sfvwrite_r gathers the pieces of a short unbuffered write into one
# (__nvptx_gather_write), and __swrite does not seek before writing to an
# append-mode stream.  (How many host calls that makes is counted on a GPU
# by bench/gpu-check.sh.)  newlib 3.3 names the members lib_a-NAME.o, 4.x
# libc_a-NAME.o.  Environment: NEWLIB, WORK.
for ml in "" mgomp/; do
  d=$WORK/newlib-writes-${ml%/}
  rm -rf "$d"; mkdir -p "$d"
  p=$(nvptx-none-ar t "$NEWLIB/${ml}libc.a" | sed -n 's/^\(libc\{0,1\}_a-\)stdio\.o$/\1/p')
  ( cd "$d" && nvptx-none-ar x "$NEWLIB/${ml}libc.a" "${p}fvwrite.o" "${p}stdio.o" ) \
    || { echo "FAIL: newlib-writes: ${ml}libc.a lacks fvwrite.o or stdio.o"; continue; }
  if grep -q 'FUNCTION DEF: __nvptx_gather_write' "$d/${p}fvwrite.o" \
     && grep -q 'call.*__nvptx_gather_write' "$d/${p}fvwrite.o"; then
    echo "PASS: newlib-writes: ${ml:-default/}__sfvwrite_r gathers short unbuffered writes"
  else
    echo "FAIL: newlib-writes: ${ml:-default/}no gathered write in __sfvwrite_r"
  fi
  awk '/FUNCTION DEF: __swrite$/ { f = 1 } f && /^\/\/ BEGIN / && !/__swrite$/ { f = 0 }
       f' "$d/${p}stdio.o" > "$d/swrite.ptx"
  if test -s "$d/swrite.ptx" && ! grep -q '_lseek_r' "$d/swrite.ptx"; then
    echo "PASS: newlib-writes: ${ml:-default/}__swrite does not seek for append mode"
  else
    echo "FAIL: newlib-writes: ${ml:-default/}__swrite calls _lseek_r (or is missing)"
  fi
done

#!/bin/sh
# build-aux/real-program.sh, which finds the program that a CUDA tool
# really is so that the trixie root can bind its directory: symbolic links
# and wrapper scripts (the CI machine's /usr/local/bin/ptxas is
#   exec /usr/local/cuda-13.0/bin/ptxas "$@"
# and binding /usr/local/bin made every compile in the root fail) are
# followed; a script naming no such program, one naming only itself and a
# loop of scripts are refused, never answered with the wrapper.
# Environment: TOP, WORK.
w=$WORK/real-program
rm -rf "$w"
mkdir -p "$w/cuda-9/bin" "$w/bin" "$w/loop"
rp="$TOP/build-aux/real-program.sh"

# The tool itself: an executable that is not a script.
printf '\177ELF fake\n' > "$w/cuda-9/bin/ptxas"
chmod +x "$w/cuda-9/bin/ptxas"
ln -s cuda-9 "$w/cuda"
# A wrapper through a symbolic link, as CUDA's installer lays it out.
printf '#!/bin/sh\n# calls ptxas\nexec %s/cuda/bin/ptxas "$@"\n' "$w" > "$w/bin/ptxas"
chmod +x "$w/bin/ptxas"
# A wrapper of the wrapper, the path quoted.
printf '#!/bin/sh\nPATH=/bin; exec "%s/bin/ptxas" --x "$@"\n' "$w" > "$w/loop/ptxas-outer"
mkdir -p "$w/outer"
cp "$w/loop/ptxas-outer" "$w/outer/ptxas"
chmod +x "$w/outer/ptxas"
# Scripts that name no other ptxas, only themselves, or each other.
printf '#!/bin/sh\nexec /nonexistent/bin/nvlink "$@"\n' > "$w/loop/nothing"
mkdir -p "$w/loop/a" "$w/loop/b" "$w/loop/c"
printf '#!/bin/sh\nexec %s/loop/c/ptxas "$@"\n' "$w" > "$w/loop/c/ptxas"
printf '#!/bin/sh\nexec %s/loop/b/ptxas "$@"\n' "$w" > "$w/loop/a/ptxas"
printf '#!/bin/sh\nexec %s/loop/a/ptxas "$@"\n' "$w" > "$w/loop/b/ptxas"
cp "$w/loop/nothing" "$w/loop/ptxas"
chmod +x "$w/loop/ptxas" "$w/loop/a/ptxas" "$w/loop/b/ptxas" "$w/loop/c/ptxas"
printf 'not executable\n' > "$w/plain"

want="$w/cuda-9/bin/ptxas"
check ()  # WHAT PROGRAM EXPECTED(empty: refused)
{
  got=$(sh "$rp" "$2"); st=$?
  if test -n "$3"; then
    if test $st = 0 && test "$got" = "$3"; then
      echo "PASS: real-program: $1"
    else
      echo "FAIL: real-program: $1: status $st, '$got' (want '$3')"
    fi
  elif test $st != 0 && test -z "$got"; then
    echo "PASS: real-program: $1 is refused"
  else
    echo "FAIL: real-program: $1: status $st, '$got' (want a refusal)"
  fi
}
check "the tool itself" "$want" "$want"
check "a symbolic link to it" "$w/cuda/bin/ptxas" "$want"
check "a wrapper script" "$w/bin/ptxas" "$want"
check "a wrapper of a wrapper, quoted" "$w/outer/ptxas" "$want"
check "a script naming no other ptxas" "$w/loop/ptxas"
check "a script naming only itself" "$w/loop/c/ptxas"
check "a loop of two scripts" "$w/loop/a/ptxas"
check "a file that is not executable" "$w/plain"
check "a missing file" "$w/none/ptxas"
# Through PATH, as gomp-gcc's configure finds ptxas.
got=$(PATH="$w/bin:$PATH" sh "$rp" ptxas)
if test "$got" = "$want"; then
  echo "PASS: real-program: a name found on PATH"
else
  echo "FAIL: real-program: a name found on PATH: '$got'"
fi

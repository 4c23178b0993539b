#!/bin/sh
# compile-memo.sh: run a compiler driver, or make again what the same
# command made before.  For test harnesses whose programs are compiled the
# same way run after run (tests/upstream/run-upstream.sh, with this
# install's gomp-gcc, gomp-g++ and gomp-gfortran): there the compiles,
# not the test programs' runs, are most of the time.  The programs still
# run every time, against the libgomp.so.1 and plugin of this build.
#
# Usage: compile-memo.sh --digest STAGE PATH...
#   Prints the digest (64 hex digits) of what a compile may read besides
#   the files its command names:
#    - this script;
#    - the install tree STAGE: every file's contents, but that a shared
#      object (lib/*.so*) counts only by its dynamic interface (the
#      symbols it defines, their versions, its SONAME and NEEDED), which
#      is all that a link takes from it; and that libexec/gomp-hs/
#      gomp-hs-serve and bin/gomp-nvptx-run (run by programs, never by a
#      compile), lib/libgomp-hs-server.a (a command that names it is
#      never kept) and share/ do not count;
#    - each PATH: a file, or every file under a directory (the testsuite,
#      the headers its tests include by relative name);
#    - the installed packages and their versions (dpkg-query: the
#      compilers, binutils, nvptx-tools, the C library's headers);
#    - which gcc-N, accelerator compiler, nvptx-none-as and ptxas the
#      PATH finds, and ptxas's version (nvptx-as checks each module with
#      it).
#   Exit status 1 when a part of it cannot be known.
#
# Usage: compile-memo.sh DRIVER ARG...
#   Runs DRIVER ARG... in the current directory, or, when the memory holds
#   a command with the same key, prints its standard output and error and
#   puts its files back (their times now) without running it.  The key:
#   COMPILE_MEMO_DIGEST, the current directory (or COMPILE_MEMO_CWD), DRIVER, each ARG, the
#   contents of each ARG that names an existing regular file (but the -o
#   output) and of each Fortran module (*.mod, *.smod) in the current
#   directory, and the environment variables a driver reads (PATH, LD_*,
#   LC_*, LANG, GCC_*, COLLECT_*, GOMP_GCC_*, the include and library path
#   variables).
#   Kept: a command that exited 0, named an existing file, and whose
#   every change while it ran, under the current directory, was to a
#   regular file in it (those named in COMPILE_MEMO_IGNORE are not a
#   result).  Never kept, run every time: a failure; a command
#   with no file among its arguments (-print-file-name, ...); one whose
#   -o names another directory; one that reads standard input ("-"); one
#   that names gomp-hs-server (which the digest leaves out); one that made
#   something else than regular files there, or a name with a newline.
# Environment:
#   COMPILE_MEMO        the memory: a directory of KEY.tar.gz files (KEY: 32
#                       hex digits; tests/run-all.sh prunes those unused
#                       for 14 days).  Unset or empty: DRIVER just runs.
#   COMPILE_MEMO_DIGEST from --digest; unset or empty: DRIVER just runs.
#   COMPILE_MEMO_IGNORE names of files in the current directory that the
#                       harness itself writes while a compile runs
#                       (runtest's libgomp.log, ...): never a result.
#   COMPILE_MEMO_CWD    the name the current directory has in the key:
#                       a harness that runs the same commands in one
#                       directory or, split, in several (run-upstream.sh's
#                       ours/ or ours-1/ and ours-2/) names them all the
#                       same.  Unset or empty: the directory's own path.
#   COMPILE_MEMO_TOKEN  digits that the names in a command may hold and
#                       that differ from run to run: runtest's process id,
#                       in the names of DejaGnu's effective-target probes
#                       (NAME<pid>.c, NAME<pid>.exe).  Where a name ends in
#                       it (a non-digit, the token, a dot; 3 digits or more)
#                       it stands as @T@ in the key, in the names of the files kept and in the
#                       messages kept; not in the files' contents (a probe's
#                       program names its old source: no probe looks).
#   COMPILE_MEMO_STATS  a file: a line "hit", "kept" or "ran" is added to
#                       it for each command.
LC_ALL=C
export LC_ALL
self=$0

hash_stdin () { sha256sum | cut -d ' ' -f 1; }

# The dynamic interface of the shared object $1, one item a line; a
# file that is not ELF (a linker script) by its contents.
so_interface ()
{
  if ! readelf -h "$1" > /dev/null 2>&1; then
    cat "$1"
    return
  fi
  readelf -W --dyn-syms "$1" | awk '
    NF >= 8 && $1 ~ /^[0-9]+:$/ && $7 != "UND" {
      print $4, $5, $6, ($4 == "OBJECT" || $4 == "TLS") ? $3 : "-", $8 }' \
    | sort
  readelf -W -d "$1" | grep -E '\((SONAME|NEEDED)\)' | sed 's/^ *0x[0-9a-f]* *//'
}

if test "$1" = --digest; then
  test $# -ge 2 || { echo "usage: compile-memo.sh --digest STAGE PATH..." >&2; exit 2; }
  stage=$2
  shift 2
  test -d "$stage" || { echo "compile-memo.sh: no stage $stage" >&2; exit 1; }
  for t in dpkg-query readelf sha256sum; do
    command -v $t > /dev/null 2>&1 \
      || { echo "compile-memo.sh: no $t: the digest cannot be known" >&2; exit 1; }
  done
  ver=$(cat "$stage/libexec/gomp-hs/gcc-version" 2> /dev/null) || ver=12
  {
    echo "compile-memo 1 $(hash_stdin < "$self")"
    # Each list is hashed by one sha256sum: names and contents.
    (cd "$stage" && find . -type l | sort | while IFS= read -r f; do
       echo "L $f $(readlink "$f")"
     done)
    (cd "$stage" && find . -type f ! -path './share/*' \
	 ! -path ./libexec/gomp-hs/gomp-hs-serve ! -path ./bin/gomp-nvptx-run \
	 ! -path ./lib/libgomp-hs-server.a \
	 ! -path './lib/*.so' ! -path './lib/*.so.*' -print0 \
       | sort -z | xargs -0 -r sha256sum)
    (cd "$stage" && find . -type f \( -path './lib/*.so' -o -path './lib/*.so.*' \) \
       | sort | while IFS= read -r f; do
	 echo "S $f $(so_interface "$f" | hash_stdin)"
       done)
    for p in "$@"; do
      if test -d "$p"; then
	echo "P $p"
	(cd "$p" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
      elif test -f "$p"; then
	echo "P $p $(hash_stdin < "$p")"
      else
	echo "P $p none"
      fi
    done
    dpkg-query -W -f '${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' | sort
    for t in "gcc-$ver" "g++-$ver" "gfortran-$ver" \
	     "x86_64-linux-gnu-accel-nvptx-none-gcc-$ver" nvptx-none-as ptxas; do
      echo "T $t $(command -v "$t")"
    done
    command -v ptxas > /dev/null 2>&1 && ptxas --version 2>&1
  } | hash_stdin
  exit 0
fi

test $# -ge 1 || { echo "usage: compile-memo.sh DRIVER ARG..." >&2; exit 2; }
# The token, and its stand-in: with no token, @T@ stands for itself.
token=$COMPILE_MEMO_TOKEN
case $token in ''|*[!0-9]*|?|??) token=@T@ ;; esac
# Only where a name ends in it, before its extension: NAME<pid>.c.
to_t="s/\([^0-9]\)$token\./\1@T@./g"
from_t="s/@T@\./$token./g"
stat_line () { test -z "$COMPILE_MEMO_STATS" || echo "$1" >> "$COMPILE_MEMO_STATS" || :; }
memo=$COMPILE_MEMO
test -n "$memo" && test -n "$COMPILE_MEMO_DIGEST" && test -d "$memo" \
  || { stat_line ran; exec "$@"; }
driver=$1
shift

# The -o output, whether the command reads no stdin, and the contents of
# the files it names (but the output), for the key: none, and it just runs.
out= prev= sums= plain=
for a in "$@"; do
  if test "$prev" = -o; then
    out=$a
  else
    case $a in
      -o) ;;
      -o*) out=${a#-o} ;;
      -) plain=1 ;;
      *gomp-hs-server*) plain=1 ;;
      *) test -f "$a" && sums="${sums}file $(hash_stdin < "$a")
" ;;
    esac
  fi
  prev=$a
done
if test -n "$out"; then
  case $out in
    */*) d=$(cd "$(dirname "$out")" 2> /dev/null && pwd -P) || plain=1
	 test "$d" = "$(pwd -P)" || plain=1 ;;
  esac
fi
test -n "$sums" && test -z "$plain" || { stat_line ran; exec "$driver" "$@"; }

key=$({
  echo "digest $COMPILE_MEMO_DIGEST"
  echo "cwd ${COMPILE_MEMO_CWD:-$(pwd -P)}"
  echo "driver $driver"
  env | grep -E '^(PATH|LD_[A-Z_]*|LC_[A-Z]*|LANG|LANGUAGE|GCC_[A-Z_]*|COLLECT_[A-Z_]*|GOMP_GCC_[A-Z_]*|GOMP_GXX_CXX|GOMP_GFORTRAN_FC|COMPILER_PATH|LIBRARY_PATH|CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH|DEPENDENCIES_OUTPUT|SUNPRO_DEPENDENCIES|SOURCE_DATE_EPOCH|COLUMNS|TERM)=' | sort
  printf 'arg %s\0' "$@" | sed "$to_t"
  echo
  # Fortran modules here are read by name, not named in the command.
  for m in *.mod *.smod; do
    test -f "$m" && echo "module $m $(hash_stdin < "$m")"
  done
  printf '%s' "$sums"
} | hash_stdin | cut -c 1-32)
entry=$memo/$key.tar.gz

# A hit: the files first, so that a broken entry (then removed) leaves
# nothing printed and the command runs as if there were none.
if test -f "$entry" \
   && tar -xzmf "$entry" --exclude=.compile-memo --transform "$from_t" 2> /dev/null; then
  tar -xzOf "$entry" .compile-memo/stdout | sed "$from_t"
  tar -xzOf "$entry" .compile-memo/stderr | sed "$from_t" >&2
  touch "$entry" 2> /dev/null
  stat_line hit
  exit 0
fi
# Not put back: a broken entry goes; one that could not be put back here
# (a full disk, a file in the way) stays for the next command.
test -f "$entry" && ! tar -tzf "$entry" > /dev/null 2>&1 && rm -f "$entry"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compile-memo-XXXXXX") || { stat_line ran; exec "$driver" "$@"; }
trap 'rm -rf "$tmp"' 0
trap 'exit 1' HUP INT TERM
mkdir "$tmp/.compile-memo"
touch "$tmp/stamp"
"$driver" "$@" > "$tmp/.compile-memo/stdout" 2> "$tmp/.compile-memo/stderr"
status=$?
cat "$tmp/.compile-memo/stdout"
cat "$tmp/.compile-memo/stderr" >&2
if test $status != 0; then
  stat_line ran
  exit $status
fi

# What it made here: the regular files changed since the stamp, but the
# harness's own.  Anything else changed here or below (a directory, a
# file in one, a link, a name with a newline), or an -o output not among
# them, and nothing is kept.
find . -newer "$tmp/stamp" ! -name . -print > "$tmp/made.all"
find . -maxdepth 1 -newer "$tmp/stamp" -type f ! -name '*
*' -print > "$tmp/made.files"
keep=yes
cmp -s "$tmp/made.all" "$tmp/made.files" || keep=no
: > "$tmp/made"
while IFS= read -r f; do
  case " $COMPILE_MEMO_IGNORE " in *" ${f#./} "*) continue ;; esac
  case $f in ./.compile-memo) keep=no ;; esac
  echo "$f" >> "$tmp/made"
done < "$tmp/made.files"
if test -n "$out"; then
  o=./${out##*/}
  test -f "$out" && ! grep -q -x -F -e "$o" "$tmp/made" && keep=no
fi
if test $keep = yes; then
  part=$(mktemp "$memo/.$key.XXXXXX" 2> /dev/null) \
    && sed -i "$to_t" "$tmp/.compile-memo/stdout" "$tmp/.compile-memo/stderr" \
    && tar -czf "$part" --transform "$to_t" -C "$tmp" .compile-memo \
	   -C "$PWD" --verbatim-files-from -T "$tmp/made" 2> /dev/null \
    && chmod 644 "$part" && mv -f "$part" "$entry" && stat_line kept && exit 0
  test -n "$part" && rm -f "$part"
fi
stat_line ran
exit 0

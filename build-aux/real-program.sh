#!/bin/sh
# Print the absolute path of the executable file that PROGRAM really runs:
# PROGRAM itself with its symbolic links followed, or, where that is a
# shell script that hands over to another program of the same name (as
# /usr/local/bin/ptxas does on some CUDA installs:
#   exec /usr/local/cuda-13.0/bin/ptxas "$@"),
# that program, followed in the same way (four scripts deep at most).
# A chroot that binds the directory of the printed file runs the tool
# itself, where binding the directory of a wrapper would leave it calling
# a path the chroot lacks.  Exit status 1, printing nothing, when PROGRAM
# is not an executable file or no such program is named in its script.
#
# Usage: real-program.sh PROGRAM
p=$1
case $p in
  /*) ;;
  *) p=$(command -v "$p" 2> /dev/null) || exit 1 ;;
esac
name=$(basename "$p")
depth=0
while :; do
  p=$(readlink -f "$p" 2> /dev/null) || exit 1
  test -f "$p" && test -x "$p" || exit 1
  # An ELF file (or anything else that is not a script) is the program.
  test "$(head -c 2 "$p")" = '#!' || break
  test $depth -lt 4 || exit 1
  depth=$((depth + 1))
  # The first absolute path to an executable of the same name, other
  # than the script itself, that the script mentions.
  next=
  for w in $(sed -e 's/#.*//' "$p" | tr -s '"'"'"'\t ;&|()`=' '\n' | grep "^/.*/$name\$"); do
    if test -x "$w" && test "$(readlink -f "$w")" != "$p"; then
      next=$w
      break
    fi
  done
  test -n "$next" || exit 1
  p=$next
done
echo "$p"

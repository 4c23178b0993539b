#!/bin/sh
# The compile memory of the upstream runs (tests/compile-memo.sh): a
# command given again with the same inputs makes the same files and
# prints the same messages without running; a change to any input of its
# key runs it; failures and commands it cannot see whole are never kept.
# A fake driver that counts its runs stands in for gomp-gcc; the digest's
# checks use a stage of two small shared objects built with HOST_CC.
# Environment: TOP, WORK, HOST_CC (default gcc).
w=$WORK/compile-memo
rm -rf "$w"; mkdir -p "$w/memo" "$w/a" "$w/b" "$w/other"
memo=$TOP/tests/compile-memo.sh
pass () { echo "PASS: compile-memo: $*"; }
fail () { echo "FAIL: compile-memo: $*"; }

# The fake driver: one line in runs.txt per run; writes what -o names
# (the sources' contents and its arguments) and a dump beside it; prints
# a line on each stream; FAKE_STATUS is its exit status; FAKE_ELSEWHERE a
# file it also writes; FAKE_LOG a file it appends to (the harness's log).
cat > "$w/cc" <<'EOF'
#!/bin/sh
echo run >> "$FAKE_RUNS"
out=a.out prev= srcs=
for a in "$@"; do
  test "$prev" = -o && out=$a
  case $a in *.c) srcs="$srcs $a" ;; esac
  prev=$a
done
{ test -z "$srcs" || cat $srcs; echo "args: $*"; } > "$out"
chmod +x "$out"
echo "dump of $out" > "$out.dump"
test -n "$FAKE_ELSEWHERE" && echo x > "$FAKE_ELSEWHERE"
test -n "$FAKE_LOG" && echo "log line" >> "$FAKE_LOG"
echo "out: compiled$srcs"
echo "warning: in$srcs" >&2
exit ${FAKE_STATUS:-0}
EOF
chmod +x "$w/cc"
FAKE_RUNS=$w/runs.txt
COMPILE_MEMO=$w/memo
COMPILE_MEMO_DIGEST=d1
export FAKE_RUNS COMPILE_MEMO COMPILE_MEMO_DIGEST
runs () { test -f "$FAKE_RUNS" && wc -l < "$FAKE_RUNS" | tr -d ' ' || echo 0; }
# cc DIR OUTFILE ARG...: the driver through the memory in DIR; its
# messages (both streams) in OUTFILE, its status in $st.
cc ()
{
  d=$1 o=$2
  shift 2
  (cd "$w/$d" && sh "$memo" "$w/cc" "$@") > "$w/$o" 2>&1
  st=$?
}

echo 'int x;' > "$w/a/t.c"
cc a 1.out t.c -O2 -o ./t.exe
cp "$w/a/t.exe" "$w/t.exe.1"; cp "$w/a/t.exe.dump" "$w/t.dump.1"
rm -f "$w/a/t.exe" "$w/a/t.exe.dump"
cc a 2.out t.c -O2 -o ./t.exe
if test $st = 0 && test "$(runs)" = 1 && cmp -s "$w/a/t.exe" "$w/t.exe.1" \
   && cmp -s "$w/a/t.exe.dump" "$w/t.dump.1" && test -x "$w/a/t.exe" \
   && grep -q '^out: compiled t.c$' "$w/2.out" && grep -q '^warning: in t.c$' "$w/2.out" \
   && cmp -s "$w/1.out" "$w/2.out" && test "$(ls "$w/memo" | wc -l)" = 1; then
  pass "the same command again runs nothing: its output, its dump and its messages are made again"
else
  fail "second command: runs $(runs), status $st, $(cat "$w/2.out"; ls -l "$w/a" "$w/memo")"
fi

# Each input of the key runs the command again.
n=$(runs)
echo 'int y;' > "$w/a/t.c"
cc a 3.out t.c -O2 -o ./t.exe
test "$(runs)" = $((n + 1)) && grep -q 'int y' "$w/a/t.exe" \
  && pass "a changed source runs it" || fail "changed source: runs $(runs)"
cc a 4.out t.c -O1 -o ./t.exe
test "$(runs)" = $((n + 2)) && pass "another option runs it" || fail "another option: runs $(runs)"
cp "$w/a/t.c" "$w/b/t.c"
cc b 5.out t.c -O1 -o ./t.exe
test "$(runs)" = $((n + 3)) && pass "another directory runs it" || fail "another directory: runs $(runs)"
# A harness's split directories, named alike: one command.
mkdir -p "$w/h1" "$w/h2" "$w/h3"
for d in h1 h2 h3; do cp "$w/a/t.c" "$w/$d/t.c"; done
COMPILE_MEMO_CWD=$w/h cc h1 5a.out t.c -O1 -o ./t.exe
COMPILE_MEMO_CWD=$w/h cc h2 5b.out t.c -O1 -o ./t.exe
r2=$(runs)
COMPILE_MEMO_CWD=$w/hh cc h3 5c.out t.c -O1 -o ./t.exe
test $r2 = $((n + 4)) && test "$(runs)" = $((n + 5)) && cmp -s "$w/h1/t.exe" "$w/h2/t.exe" \
  && cmp -s "$w/5a.out" "$w/5b.out" \
  && pass "directories given one name (COMPILE_MEMO_CWD) are one; another name runs it" \
  || fail "COMPILE_MEMO_CWD: runs $(runs), expected $((n + 5))"
n=$((n + 2))
COMPILE_MEMO_DIGEST=d2 cc a 6.out t.c -O1 -o ./t.exe
test "$(runs)" = $((n + 4)) && pass "another digest (stage, packages, testsuite) runs it" \
  || fail "another digest: runs $(runs)"
GCC_EXEC_PREFIX=/nowhere/ cc a 7.out t.c -O1 -o ./t.exe
test "$(runs)" = $((n + 5)) && pass "a driver's environment variable runs it" \
  || fail "GCC_EXEC_PREFIX: runs $(runs)"
cc a 8.out t.c -O1 -o ./t.exe
test "$(runs)" = $((n + 5)) && pass "and each of those is kept in its turn" \
  || fail "a kept command ran again: runs $(runs)"
echo 'module m v1' > "$w/a/m.mod"
cc a 8m.out t.c -O1 -o ./t.exe
echo 'module m v2' > "$w/a/m.mod"
cc a 8n.out t.c -O1 -o ./t.exe
rm -f "$w/a/m.mod"
test "$(runs)" = $((n + 7)) && pass "a Fortran module here, read by name, is in the key" \
  || fail "module: runs $(runs)"

# Never kept: a failure (its status given back), a file made elsewhere, an
# -o in another directory, no file among the arguments.
n=$(runs)
FAKE_STATUS=1 cc a 9.out t.c -Wfail -o ./t.exe
s1=$st
FAKE_STATUS=1 cc a 10.out t.c -Wfail -o ./t.exe
test $s1 = 1 && test $st = 1 && test "$(runs)" = $((n + 2)) \
  && grep -q '^warning: in t.c$' "$w/10.out" \
  && pass "a failure runs every time, with its status and messages" \
  || fail "failure: statuses $s1 $st, runs $(runs)"
n=$(runs)
cc a 11.out t.c -o ../other/t.exe
cc a 12.out t.c -o ../other/t.exe
test "$(runs)" = $((n + 2)) && test -f "$w/other/t.exe" \
  && pass "an output in another directory is never kept" \
  || fail "output elsewhere: runs $(runs)"
n=$(runs)
cc a 13.out -print-file-name=libgomp.so
cc a 14.out -print-file-name=libgomp.so
test "$(runs)" = $((n + 2)) && pass "a command naming no file runs every time" \
  || fail "no file: runs $(runs)"
n=$(runs)
mkdir -p "$w/a/sub"
FAKE_ELSEWHERE=$w/a/sub/x cc a 15.out t.c -O3 -o t3.exe
FAKE_ELSEWHERE=$w/a/sub/x cc a 16.out t.c -O3 -o t3.exe
test "$(runs)" = $((n + 2)) && pass "a command that changed a directory here is never kept" \
  || fail "subdirectory: runs $(runs)"

# The harness's own files, written while the compile runs, are not a
# result: not put back, not overwritten.
n=$(runs)
FAKE_LOG=$w/a/libgomp.log COMPILE_MEMO_IGNORE="libgomp.log libgomp.sum" \
  cc a 17.out t.c -O0 -o t0.exe
echo "later line" >> "$w/a/libgomp.log"
cp "$w/a/libgomp.log" "$w/log.before"
FAKE_LOG=$w/a/libgomp.log COMPILE_MEMO_IGNORE="libgomp.log libgomp.sum" \
  cc a 18.out t.c -O0 -o t0.exe
test "$(runs)" = $((n + 1)) && cmp -s "$w/a/libgomp.log" "$w/log.before" \
  && pass "the harness's log is neither kept nor put back" \
  || fail "harness log: runs $(runs), $(diff "$w/log.before" "$w/a/libgomp.log")"

# The token (runtest's pid) in a probe's names: a later run's probe is
# the same command.
n=$(runs)
echo 'int p;' > "$w/a/probe111.c"
COMPILE_MEMO_TOKEN=111 cc a 19.out probe111.c -o probe111.exe
echo 'int p;' > "$w/a/probe222.c"
COMPILE_MEMO_TOKEN=222 cc a 20.out probe222.c -o probe222.exe
test "$(runs)" = $((n + 1)) && test -f "$w/a/probe222.exe" \
  && grep -q '^out: compiled probe222.c$' "$w/20.out" \
  && grep -q '^warning: in probe222.c$' "$w/20.out" \
  && pass "a probe named for another runtest's pid is the same command, its names and messages made for this one" \
  || fail "token: runs $(runs), $(cat "$w/20.out"; ls "$w/a")"
n=$(runs)
COMPILE_MEMO_TOKEN=222 cc a 20b.out t.c -DL=222 -o t222x.exe
COMPILE_MEMO_TOKEN=444 cc a 20c.out t.c -DL=444 -o t222x.exe
test "$(runs)" = $((n + 2)) && grep -q -- '-DL=444' "$w/a/t222x.exe" \
  && pass "the token counts only where a name ends in it: an option that holds it is another command" \
  || fail "token elsewhere: runs $(runs)"
n=$(runs)
echo 'int q;' > "$w/a/probe333.c"
COMPILE_MEMO_TOKEN=333 cc a 21.out probe333.c -o probe333.exe
test "$(runs)" = $((n + 1)) && pass "but not with other contents" || fail "token, other contents: runs $(runs)"

# A broken entry is removed, and the command runs with its messages once.
n=$(runs)
cc a 22.out t.c -O3 -g -o tg.exe
for e in "$w"/memo/*.tar.gz; do
  tar -tzf "$e" 2> /dev/null | grep -q '^\./tg\.exe$' && head -c 100 "$e" > "$e.cut" && mv "$e.cut" "$e"
done
cc a 23.out t.c -O3 -g -o tg.exe
test "$(runs)" = $((n + 2)) && test "$(grep -c '^warning: in t.c$' "$w/23.out")" = 1 \
  && cc a 24.out t.c -O3 -g -o tg.exe && test "$(runs)" = $((n + 2)) \
  && pass "a broken entry runs the command (messages once) and is kept again" \
  || fail "broken entry: runs $(runs), $(cat "$w/23.out")"

# An entry that cannot be put back here (a directory in the way of one
# of its files) is not broken: it stays.
cc a 24a.out t.c -O3 -DW -o tw.exe
e=$(ls -t "$w"/memo/*.tar.gz | head -n 1)
rm -f "$w/a/tw.exe.dump"; mkdir "$w/a/tw.exe.dump"; : > "$w/a/tw.exe.dump/x"
FAKE_STATUS=1 cc a 24b.out t.c -O3 -DW -o tw.exe
rm -rf "$w/a/tw.exe.dump"
test $st = 1 && test -f "$e" && tar -tzf "$e" > /dev/null 2>&1 \
  && pass "an entry that could not be put back here stays" \
  || fail "entry in the way: status $st, $(ls "$w/memo" | wc -l) entries"

# Without a memory or a digest the driver just runs.
n=$(runs)
COMPILE_MEMO= cc a 25.out t.c -O2 -o ./t.exe
COMPILE_MEMO_DIGEST= cc a 26.out t.c -O2 -o ./t.exe
test "$(runs)" = $((n + 2)) && pass "no memory or no digest: it runs" || fail "off: runs $(runs)"

# The digest: a stage's compilers and device libraries count by their
# contents, a shared object by its interface only, the server program
# not at all.
cc_host=${HOST_CC:-gcc}
st=$w/stage
mkdir -p "$st/lib/nvptx-none" "$st/libexec/gomp-hs" "$st/bin" "$w/ts"
echo 14 > "$st/libexec/gomp-hs/gcc-version"
echo dev > "$st/lib/nvptx-none/libgomp.a"
echo srv > "$st/libexec/gomp-hs/gomp-hs-serve"
echo 'int t;' > "$w/ts/t.c"
mkso ()  # BODY
{
  printf 'int gomp_fn (int x) { return %s; }\n' "$1" > "$w/so.c"
  test -n "$2" && printf 'int %s (void) { return 0; }\n' "$2" >> "$w/so.c"
  "$cc_host" -shared -fPIC -Wl,-soname,libgomp.so.1 -o "$st/lib/libgomp.so.1.0.0" "$w/so.c"
}
if mkso 'x + 1' && ln -sf libgomp.so.1.0.0 "$st/lib/libgomp.so.1"; then
  dg () { sh "$memo" --digest "$st" "$w/ts"; }
  d0=$(dg)
  d1=$(dg)
  mkso 'x * 3 + 2'; d2=$(dg)
  echo srv2 > "$st/libexec/gomp-hs/gomp-hs-serve"; d3=$(dg)
  echo dev2 > "$st/lib/nvptx-none/libgomp.a"; d4=$(dg)
  mkso 'x * 3 + 2' gomp_new; d5=$(dg)
  echo 'int u;' > "$w/ts/t.c"; d6=$(dg)
  ln -sf libgomp.so.1.0.0 "$st/lib/libgomp.so"; d7=$(dg)
  if test ${#d0} = 64 && test "$d0" = "$d1"; then
    pass "the digest is the same for the same stage"
  else
    fail "digest: '$d0' then '$d1'"
  fi
  test "$d2" = "$d1" && pass "a shared object's code is not in the digest" \
    || fail "a new body of libgomp.so changed the digest"
  test "$d3" = "$d2" && pass "the server program is not in the digest" \
    || fail "gomp-hs-serve changed the digest"
  test "$d4" != "$d3" && pass "a device library is in the digest" \
    || fail "the device libgomp.a did not change the digest"
  test "$d5" != "$d4" && pass "a shared object's new symbol is in the digest" \
    || fail "a new symbol of libgomp.so did not change the digest"
  test "$d6" != "$d5" && pass "a file of the testsuite is in the digest" \
    || fail "the testsuite's file did not change the digest"
  test "$d7" != "$d6" && pass "a new link in the stage is in the digest" \
    || fail "a new link did not change the digest"
else
  fail "cannot build a shared object with $cc_host"
fi

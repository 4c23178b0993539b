# The data path's rounds in PTX (host-service-client.h, DATA-PATH
# ROUNDS): over the body of one function, the longest run of loads
# matching LD (default: ld.volatile.v2.u64) in text order that no
# instruction using one of their results interrupts.  A use: any operand
# of an instruction other than its destination (a store's operands, a
# branch's predicate, a call's arguments); a register that is written
# again leaves the set; a register copy of one joins it.  Prints "run N"
# (loads) and "regs N" (the registers those loads fill and their copies).
function tokens(s, t,    n, i, k, m) {
  n = split(s, t, /[^%A-Za-z0-9_]+/)
  m = 0
  for (i = 1; i <= n; i++)
    if (t[i] ~ /^%/)
      k[++m] = t[i]
  for (i = 1; i <= m; i++)
    t[i] = k[i]
  for (i = m + 1; i <= n; i++)
    delete t[i]
  return m
}
function end_run() {
  if (run > best) {
    best = run
    bregs = nregs
  }
  run = 0
  nregs = 0
  for (r in live)
    delete live[r]
}
BEGIN { if (LD == "") LD = "ld.volatile.v2.u64" }
{
  line = $0
  sub(/\/\/.*/, "", line)
  sub(/^[ \t]+/, "", line)
  if (line == "" || line ~ /^[.$]/ || line ~ /^[{}]/)
    next
  pred = ""
  if (line ~ /^@/) {
    pred = line; sub(/^@!?[ \t]*/, "", pred); sub(/[ \t].*/, "", pred)
    sub(/^@[^ \t]+[ \t]+/, "", line)
  }
  op = line; sub(/[ \t].*/, "", op)
  rest = line; sub(/^[^ \t]+[ \t]*/, "", rest)
  if (pred != "" && (pred in live)) { end_run(); next }
  if (op ~ /^call/ || op ~ /^ret/) { end_run(); next }
  if (index(op, LD) == 1) {
    # Destination {a, b} or a; then the address.
    dst = rest; sub(/\[.*/, "", dst)
    adr = rest; sub(/^[^[]*\[/, "", adr)
    na = tokens(adr, ta)
    for (i = 1; i <= na; i++)
      if (ta[i] in live) { end_run(); break }
    nd = tokens(dst, td)
    for (i = 1; i <= nd; i++) {
      live[td[i]] = 1
      nregs++
    }
    run++
    next
  }
  if (op ~ /^st/ || op ~ /^bra/ || op ~ /^(bar|membar|vote|shfl)/) {
    nt = tokens(rest, tt)
    for (i = 1; i <= nt; i++)
      if (tt[i] in live) { end_run(); break }
    next
  }
  # Other instructions: the first operand is written, the others read.
  d = rest; sub(/,.*/, "", d)
  s = rest; if (index(s, ",")) sub(/^[^,]*,/, "", s); else s = ""
  nt = tokens(s, tt)
  # A register copy (GCC's PTX is full of them; ptxas allocates them
  # away) is no use: the copy joins the loaded registers.
  if (op ~ /^mov\./ && nt == 1 && (tt[1] in live)) {
    nd = tokens(d, td)
    if (nd == 1 && !(td[1] in live)) {
      live[td[1]] = 1
      nregs++
    }
    next
  }
  for (i = 1; i <= nt; i++)
    if (tt[i] in live) { end_run(); break }
  nd = tokens(d, td)
  for (i = 1; i <= nd; i++)
    if (td[i] in live) {
      delete live[td[i]]
      nregs--
    }
}
END {
  end_run()
  print "run " best + 0
  print "regs " bregs + 0
}

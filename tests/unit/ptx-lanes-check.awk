# Checks of the host-service port loop in the PTX of one device object
# (tests/unit/device-lanes.sh): run over the body of the function that
# holds the loop (hs_callv).  Prints one "ok NAME" or "bad NAME: WHY"
# line per check.
#  entry-mask: the warp is read once: one activemask, or one vote
#    without .sync, whose result is the mask;
#  sync-mask: every vote.sync, shfl.sync and bar.warp.sync names that
#    mask (GCC's own predicated -muniform-simt code, "@%r... ...
#    0xffffffff", aside);
#  lock-probe: the lock word that atom.cas takes is read with
#    ld.volatile (or .cg, or .relaxed.sys), never with a plain ld.
function reg(s) { sub(/[;,].*/, "", s); return s }
{
  line = $0
  sub(/^[ \t]+/, "", line)
  pred = (line ~ /^@/)
  if (pred)
    sub(/^@[ \t]*[^ \t]+[ \t]+/, "", line)
  n = split(line, f, /[ \t,;]+/)
  op = f[1]
  if (op ~ /^activemask/ || (op ~ /^vote\./ && op !~ /\.sync/)) {
    reads++
    mask = f[2]
  } else if (op ~ /^vote\.sync/) {
    syncs[++ns] = f[n - 1 > 0 && f[n] == "" ? n - 1 : n]
  } else if (op ~ /^shfl\.sync/ || op ~ /^bar\.warp\.sync/) {
    m = f[n] == "" ? f[n - 1] : f[n]
    if (pred && m == "0xffffffff")
      gcc++
    else
      syncs[++ns] = m
  } else if (op ~ /^atom\..*cas/) {
    a = line; sub(/^[^[]*\[/, "", a); sub(/\].*/, "", a)
    cas[a] = 1
  } else if (op ~ /^ld(\.|$)/) {
    a = line; sub(/^[^[]*\[/, "", a); sub(/\].*/, "", a)
    if (op ~ /\.volatile|\.cg|\.relaxed\.sys|\.acquire/)
      good[a] = 1
    else
      plain[a] = 1
  }
}
END {
  if (reads == 1)
    print "ok entry-mask"
  else
    print "bad entry-mask: the warp is read " reads + 0 " times in the loop's function (activemask, or vote without .sync)"
  bad = ""
  for (i = 1; i <= ns; i++)
    if (syncs[i] != mask)
      bad = bad " " syncs[i]
  if (ns == 0)
    print "bad sync-mask: no vote.sync in the loop's function"
  else if (bad == "")
    print "ok sync-mask (" ns " .sync instructions name " mask ")"
  else
    print "bad sync-mask: .sync instructions with other masks:" bad " (entry mask " mask ")"
  nc = 0; bad = ""
  for (a in cas) {
    nc++
    if (plain[a] || !good[a])
      bad = bad " [" a "]"
  }
  if (nc == 0)
    print "bad lock-probe: no atom.cas"
  else if (bad == "")
    print "ok lock-probe"
  else
    print "bad lock-probe: lock words read with a plain ld (or not probed):" bad
}

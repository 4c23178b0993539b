/* model-check cc: -O2 -DSAFETY */
/* The port-selection loop of hs_callv (libgomp/host-service-client.h)
   under lock-step convergence (PTX for sm_30, as libgomp is built): the
   NL lanes that entered together run as one instruction stream, and a
   divergent branch runs one side up to the join (its immediate
   post-dominator) before the other side starts.  One process is the
   whole warp.  Ports are shared with another warp (lanes-port.pmlh).
   Checked: no deadlock, mutual exclusion per port, every lane served
   exactly once.  lanes-port-loop.pml is the same loop under independent
   scheduling.  */

#include "lanes-port.pmlh"

proctype Warp ()
{
  byte pending = (1 << NL) - 1;	/* hs_lanes (hs_lane_mask ()) */
  byte won, i, j, k, first, port[NL];
  bit w;
  i = 0;
  do
  :: i == NL -> break
  :: else -> port[i] = i % NP; i++	/* hs_client_start () % nports */
  od;
  do
  :: pending == 0 -> break
  :: else ->
     /* The pending lanes run hs_port_sweep together: their CASes on one
	lock reach memory in some order; FIRST is the lane whose go first
	(any), the others follow in lane order.  */
     won = 0;
     select (first : 0 .. NL - 1);
     i = 0;
     do
     :: i == NL -> break
     :: else ->
	j = (first + i) % NL;
	if
	:: (pending >> j) & 1 ->
	   w = 0;
	   sweep (port[j], w);
	   won = won | (w -> (1 << j) : 0)
	:: else
	fi;
	i++
     od;
     j = 0; w = 0; first = 0;
     /* if (won): one side runs to the join before the other.  The lanes
	without a port do nothing before the join; the winners make their
	calls side by side: all publish, the poll loop runs until every
	winner's reply is in (a lane whose reply came waits at the loop's
	exit), then all release.  Whichever side goes first, the losers
	hold nothing and the winners wait only for the host.  */
     i = 0;
     do
     :: i == NL -> break
     :: else ->
	if
	:: (won >> i) & 1 ->
	   assert (user[port[i]] == 0);
	   user[port[i]] = i + 1;
	   req[port[i]] = i + 1
	:: else
	fi;
	i++
     od;
     i = 0;
     do
     :: i == NL -> break
     :: else ->
	if
	:: (won >> i) & 1 ->
	   rep[port[i]] == i + 1;
	   rep[port[i]] = 0;
	   served[i]++;
	   user[port[i]] = 0;
	   lock[port[i]] = 0
	:: else
	fi;
	i++
     od;
     /* The join: the vote, with all of MASK converged.  */
     pending = pending & ~won
     /* hs_pause when nobody was served */
  od;
  finished = finished + NL
}

init
{
  byte k;
  atomic {
    run Host ();
    run Other ();
    run Warp ()
  }
  check_served ()
}

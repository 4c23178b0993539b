/* Reverse offload's map kinds beyond plain data, as GCC 14 gives them
   to the device's GOMP_target_ext (found in the -fdump-tree-omplower
   output of GCC 14's own libgomp.fortran/reverse-offload-*.f90):
   Fortran descriptors (to_pset) and the pointers in them, allocatable
   scalars (a pointer of the region's own), unallocated arrays and
   scalars (address 0), derived types (struct) with an attached pointer,
   GCC's mark for implicit maps, "present", and what the host refuses.
   Included by hs-sim.c; the "device" is this process's memory, and each
   region's body checks what the host shows it.  */

#include <stddef.h>

/* A stand-in for gfortran's rank-1 descriptor: 64 bytes, the data
   pointer first.  */
struct rk_desc
{
  void *data;
  int64_t rest[7];
};

/* Device memory.  */
static int rk_a[4], rk_b[4], rk_s, *rk_sp, *rk_sp_null;
static struct rk_desc rk_da, rk_db, rk_dc;
static int rk_orphan[4];

enum { RK_ALIGN_INT = 2 << 8, RK_ALIGN_PTR = 3 << 8 };

/* Bits of what the body found right; RK_ALL when all are.  */
enum { RK_ALL = 0x1ff };

static void
rk_fortran_body (void *data)
{
  void **a = data;
  struct rk_desc *da = a[1], *db = a[4], *dc = a[11];
  int *res = a[13], k, vals = 1;
  for (k = 0; k < 4; k++)
    vals &= ((int *) a[0])[k] == k + 1 && ((int *) a[3])[k] == 10 + k;
  *res = (da->data == a[0])
	 | (db->data == a[3]) << 1
	 | (*(int **) a[7] == a[6]) << 2
	 | (a[8] == NULL && *(int **) a[9] == NULL) << 3
	 | (a[10] == NULL && dc->data == NULL) << 4
	 | (a[0] != (void *) rk_a && a[1] != (void *) &rk_da) << 5
	 | vals << 6
	 | (*(int *) a[6] == 5) << 7
	 | (a[2] == (void *) &da->data && a[5] == (void *) &db->data) << 8;
  for (k = 0; k < 4; k++)
    ((int *) db->data)[k] *= 10;
  **(int **) a[7] = 77;
  /* The region's copy of a descriptor: never goes back.  */
  db->data = (void *) (uintptr_t) 0xbad0;
}

static const char rk_fortran_id[] = "rk_fortran@rev-kinds.c#1";
static const void *const rk_fortran_table[]
  = { rk_fortran_id, (const void *) rk_fortran_body };

/* map(to: a) map(tofrom: b) for allocatable arrays (b implicitly),
   map(tofrom: s, si3, ai3) for an allocatable scalar and an unallocated
   scalar and array.  */

static void
rk_test_fortran (struct sim *s)
{
  int res = -1, k;
  void *addrs[14] = { rk_a, &rk_da, &rk_da.data, rk_b, &rk_db, &rk_db.data,
		      &rk_s, &rk_sp, NULL, &rk_sp_null, NULL, &rk_dc,
		      &rk_dc.data, &res };
  size_t sizes[14] = { sizeof rk_a, sizeof rk_da, 0, sizeof rk_b,
		       sizeof rk_db, 0, sizeof rk_s, 0, sizeof (int), 0, 0,
		       sizeof rk_dc, 0, sizeof res };
  unsigned short kinds[14]
    = { GOMP_HS_REV_TO | RK_ALIGN_INT, GOMP_HS_REV_TO_PSET | RK_ALIGN_PTR,
	GOMP_HS_REV_POINTER,
	/* GCC's mark for a map it made implicitly.  */
	GOMP_HS_REV_TOFROM | 0x60 | RK_ALIGN_INT,
	GOMP_HS_REV_TO_PSET | RK_ALIGN_PTR, GOMP_HS_REV_ALWAYS_POINTER,
	GOMP_HS_REV_TOFROM | RK_ALIGN_INT, GOMP_HS_REV_POINTER,
	GOMP_HS_REV_TOFROM | RK_ALIGN_INT, GOMP_HS_REV_POINTER,
	GOMP_HS_REV_TOFROM | RK_ALIGN_INT, GOMP_HS_REV_TO_PSET | RK_ALIGN_PTR,
	GOMP_HS_REV_POINTER, GOMP_HS_REV_FROM | RK_ALIGN_INT };
  int32_t err;
  int dev_ok;

  for (k = 0; k < 4; k++)
    {
      rk_a[k] = k + 1;
      rk_b[k] = 10 + k;
    }
  rk_da.data = rk_a;
  rk_db.data = rk_b;
  rk_dc.data = NULL;
  rk_s = 5;
  rk_sp = &rk_s;
  rk_sp_null = NULL;
  err = hs_target_rev (s->dev, rk_fortran_id, 14, addrs, sizes, kinds);
  dev_ok = rk_da.data == rk_a && rk_db.data == rk_b && rk_s == 77
	   && rk_b[0] == 100 && rk_b[3] == 130 && rk_a[3] == 4;
  check (err == 0 && res == RK_ALL && dev_ok,
	 "reverse offload, Fortran: descriptors (to_pset) with their data"
	 " pointers translated, an allocatable scalar's own pointer, an"
	 " unallocated array and scalar (address 0: nothing read or sent),"
	 " an implicit map; the device's data back, its descriptors as they"
	 " were (err %d, bits %#x of %#x, device %s)", err, res, RK_ALL,
	 dev_ok ? "right" : "wrong");
}

/* A derived type: map(tofrom: st%b, st%p, arr) map(to: st%c) with st%p
   attached to arr.  */
struct rk_t
{
  int a[5], b[5], c[5];
  int *p;
  int pad;
};
static struct rk_t rk_st, rk_st_host;
static int rk_arr[8];

static void
rk_struct_body (void *data)
{
  void **a = data;
  struct rk_t *st = a[0];
  int *res = a[6], k, vals = 1;
  for (k = 0; k < 5; k++)
    vals &= st->b[k] == 20 + k && st->c[k] == 30 + k;
  *res = ((char *) a[1] == (char *) st + offsetof (struct rk_t, b))
	 | ((char *) a[2] == (char *) st + offsetof (struct rk_t, c)) << 1
	 | ((char *) a[3] == (char *) st + offsetof (struct rk_t, p)) << 2
	 | (st->p == a[4]) << 3
	 | (st->p && st->p[7] == 47) << 4
	 | vals << 5
	 | (a[5] == (void *) &st->p) << 6
	 | (st != &rk_st) << 7
	 | ((uintptr_t) st->b % 4 == 0 && (uintptr_t) &st->p % 8 == 0) << 8;
  for (k = 0; k < 5; k++)
    {
      st->b[k] += 1;
      st->c[k] = -1;
    }
  if (st->p)
    st->p[0] = 99;
}

static const char rk_struct_id[] = "rk_struct@rev-kinds.c#1";
static const void *const rk_struct_table[]
  = { rk_struct_id, (const void *) rk_struct_body };

/* The structure's entries; PTR_KIND is the attachment's kind.  */

static int32_t
rk_struct_call (struct sim *s, int *res, unsigned short ptr_kind)
{
  void *addrs[7] = { &rk_st, rk_st.b, rk_st.c, &rk_st.p, rk_arr, &rk_st.p,
		     res };
  size_t sizes[7] = { 3, sizeof rk_st.b, sizeof rk_st.c, sizeof rk_st.p,
		      sizeof rk_arr, 0, sizeof *res };
  unsigned short kinds[7]
    = { GOMP_HS_REV_STRUCT | RK_ALIGN_PTR, GOMP_HS_REV_TOFROM | RK_ALIGN_INT,
	GOMP_HS_REV_TO | RK_ALIGN_INT, GOMP_HS_REV_TOFROM | RK_ALIGN_PTR,
	GOMP_HS_REV_TOFROM | RK_ALIGN_INT, ptr_kind,
	GOMP_HS_REV_FROM | RK_ALIGN_INT };
  int k;
  for (k = 0; k < 5; k++)
    {
      rk_st.a[k] = 10 + k;
      rk_st.b[k] = 20 + k;
      rk_st.c[k] = 30 + k;
    }
  for (k = 0; k < 8; k++)
    rk_arr[k] = 40 + k;
  rk_st.p = rk_arr;
  *res = -1;
  return hs_target_rev (s->dev, rk_struct_id, 7, addrs, sizes, kinds);
}

static void
rk_test_struct (struct sim *s)
{
  int res, dev_ok, k;
  int32_t err = rk_struct_call (s, &res, GOMP_HS_REV_ATTACH);
  dev_ok = rk_st.b[0] == 21 && rk_st.b[4] == 25 && rk_st.c[0] == 30
	   && rk_st.a[0] == 10 && rk_st.p == rk_arr && rk_arr[0] == 99
	   && rk_arr[7] == 47;
  check (err == 0 && res == RK_ALL && dev_ok,
	 "reverse offload, struct: members laid out as on the device in one"
	 " host block, an attached pointer translated for the host and the"
	 " device's value back on the device (err %d, bits %#x of %#x,"
	 " device %s)", err, res, RK_ALL, dev_ok ? "right" : "wrong");

  /* The structure present: the host's own, no copies either way.  */
  for (k = 0; k < 5; k++)
    {
      rk_st_host.b[k] = 20 + k;
      rk_st_host.c[k] = 30 + k;
    }
  rk_st_host.p = NULL;
  gomp_target_rev_map_add (REV_TID, (uintptr_t) &rk_st_host,
			   (uintptr_t) (&rk_st_host + 1), (uintptr_t) &rk_st);
  err = rk_struct_call (s, &res, GOMP_HS_REV_ATTACH);
  gomp_target_rev_map_remove (REV_TID, (uintptr_t) &rk_st_host,
			      (uintptr_t) (&rk_st_host + 1));
  /* Bits 3 and 4 are about a copy's pointer: the host's is NULL.  */
  check (err == 0 && res == (RK_ALL & ~0x18) && rk_st_host.b[0] == 21
	 && rk_st_host.c[0] == -1 && rk_st.b[0] == 20 && rk_st.p == rk_arr
	 && rk_st_host.p == NULL,
	 "reverse offload, struct present: the host's structure, its"
	 " pointer the host's, nothing copied (err %d, bits %#x)", err, res);
}

/* A derived type with an allocatable component, mapped whole and with
   its component: map(tofrom: w, w%a).  The component's descriptor lies
   in the whole's copy, whose bytes are the device's: its data pointer is
   translated there, and the whole goes back with the device's pointer.  */
struct rk_w
{
  int n;
  struct rk_desc a;
};
static struct rk_w rk_w;
static int rk_w_data[3];

static void
rk_whole_body (void *data)
{
  void **a = data;
  struct rk_w *w = a[0];
  int *d = a[1], *res = a[4];
  *res = ((char *) a[2] == (char *) &w->a)
	 | (w->a.data == (void *) d) << 1
	 | (d != rk_w_data && d[2] == 12 && w->n == 3) << 2;
  d[0] = -1;
  w->n = 4;
}

static const char rk_whole_id[] = "rk_whole@rev-kinds.c#1";
static const void *const rk_whole_table[]
  = { rk_whole_id, (const void *) rk_whole_body };

static void
rk_test_whole (struct sim *s)
{
  int res = -1, k;
  void *addrs[5] = { &rk_w, rk_w_data, &rk_w.a, &rk_w.a.data, &res };
  size_t sizes[5] = { sizeof rk_w, sizeof rk_w_data, sizeof rk_w.a, 0,
		      sizeof res };
  unsigned short kinds[5]
    = { GOMP_HS_REV_TOFROM | RK_ALIGN_PTR, GOMP_HS_REV_TOFROM | RK_ALIGN_INT,
	GOMP_HS_REV_TO_PSET | RK_ALIGN_PTR, GOMP_HS_REV_POINTER,
	GOMP_HS_REV_FROM | RK_ALIGN_INT };
  int32_t err;
  for (k = 0; k < 3; k++)
    rk_w_data[k] = 10 + k;
  rk_w.n = 3;
  rk_w.a.data = rk_w_data;
  err = hs_target_rev (s->dev, rk_whole_id, 5, addrs, sizes, kinds);
  check (err == 0 && res == 7 && rk_w.n == 4 && rk_w.a.data == rk_w_data
	 && rk_w_data[0] == -1,
	 "reverse offload: a derived type and its allocatable component:"
	 " the descriptor inside the whole's copy translated, the device's"
	 " pointer back in the whole (err %d, bits %#x of 0x7)", err, res);
}

/* Pointers: in a structure the device does not send (map(from: s)), two
   entries for one pointer, a pointer of the region's own that a later
   entry sends back, a pointer to an empty section, pointers with a bias
   (a section that starts past where the pointer points), and "present"
   members of a structure that is not.  One body; RK_CASE says which
   case it checks.  */
struct rk_ps
{
  int *p;
  int v;
};
static struct rk_ps rk_ps, rk_ps_host;
static int rk_parr[5], *rk_pvar;
static int rk_case, rk_case_runs;

static void
rk_ptr_body (void *data)
{
  void **a = data;
  struct rk_ps *ps;
  int *res = NULL;
  rk_case_runs++;
  switch (rk_case)
    {
    case 1:			/* [from ps] [tofrom arr] [attach ps.p]  */
      ps = a[0];
      res = a[3];
      *res = ps->p == a[1] && ps->v == 0;
      ps->p[0] = 5;
      ps->v = 9;
      break;
    case 2:			/* [tofrom arr] [tofrom ps] [attach] x 2  */
      ps = a[1];
      res = a[4];
      *res = ps->p == a[0] && a[2] == a[3];
      break;
    case 3:			/* [to arr] [pointer pvar] [always from pvar]  */
      res = a[3];
      *res = *(int **) a[1] == a[0] && a[2] == a[1];
      break;
    case 4:			/* [tofrom ps] [tofrom arr, 0 bytes] [attach]  */
      ps = a[0];
      res = a[3];
      *res = ps->p == a[1] && a[1] != NULL;
      break;
    case 5:			/* [tofrom arr+2, 12] [pointer pvar, bias 8]
				   [tofrom ps] [attach ps.p, bias 8]  */
      ps = a[2];
      res = a[4];
      *res = (*(int **) a[1] + 2 == (int *) a[0])
	     | ((*(int **) a[1])[2] == 102) << 1
	     | (ps->p == *(int **) a[1]) << 2;
      (*(int **) a[1])[3] = 7;
      *res = *res == 7;
      break;
    case 6:			/* [struct ps, 1] [always present to ps.v]  */
      res = a[2];
      *res = a[1] == (void *) &rk_ps_host.v && rk_ps_host.v == 33;
      break;
    }
}

static const char rk_ptr_id[] = "rk_ptr@rev-kinds.c#1";
static const void *const rk_ptr_table[]
  = { rk_ptr_id, (const void *) rk_ptr_body };

static int32_t
rk_ptr_call (struct sim *s, int c, size_t n, void **addrs, size_t *sizes,
	     unsigned short *kinds)
{
  int k;
  for (k = 0; k < 5; k++)
    rk_parr[k] = 100 + k;
  rk_ps.p = rk_parr;
  rk_ps.v = 3;
  rk_pvar = rk_parr;
  rk_case = c;
  return hs_target_rev (s->dev, rk_ptr_id, n, addrs, sizes, kinds);
}

static void
rk_test_pointers (struct sim *s)
{
  enum { TF = GOMP_HS_REV_TOFROM | RK_ALIGN_INT,
	 TFP = GOMP_HS_REV_TOFROM | RK_ALIGN_PTR,
	 FR = GOMP_HS_REV_FROM | RK_ALIGN_INT };
  int res, runs;
  int32_t err;
  {
    void *a[4] = { &rk_ps, rk_parr, &rk_ps.p, &res };
    size_t z[4] = { sizeof rk_ps, sizeof rk_parr, 0, sizeof res };
    unsigned short k[4] = { GOMP_HS_REV_FROM | RK_ALIGN_PTR, TF,
			    GOMP_HS_REV_ATTACH, FR };
    res = -1;
    err = rk_ptr_call (s, 1, 4, a, z, k);
    check (err == 0 && res == 1 && rk_ps.p == rk_parr && rk_ps.v == 9
	   && rk_parr[0] == 5,
	   "reverse offload: a pointer attached in a structure the device"
	   " does not send (from): the host's copy points to the host's,"
	   " the device's pointer comes back as it was (err %d, res %d)",
	   err, res);
  }
  {
    void *a[5] = { rk_parr, &rk_ps, &rk_ps.p, &rk_ps.p, &res };
    size_t z[5] = { sizeof rk_parr, sizeof rk_ps, 0, 0, sizeof res };
    unsigned short k[5] = { TF, TFP, GOMP_HS_REV_ATTACH,
			    GOMP_HS_REV_ATTACH_ZERO_LEN, FR };
    res = -1;
    err = rk_ptr_call (s, 2, 5, a, z, k);
    check (err == 0 && res == 1 && rk_ps.p == rk_parr,
	   "reverse offload: two entries for one pointer: translated once,"
	   " the device's value back (err %d, res %d, device %s)", err, res,
	   rk_ps.p == rk_parr ? "right" : "a host address");
  }
  {
    void *a[4] = { rk_parr, &rk_pvar, &rk_pvar, &res };
    size_t z[4] = { sizeof rk_parr, 0, sizeof rk_pvar, sizeof res };
    unsigned short k[4] = { GOMP_HS_REV_TO | RK_ALIGN_INT,
			    GOMP_HS_REV_POINTER,
			    GOMP_HS_REV_ALWAYS_FROM | RK_ALIGN_PTR, FR };
    res = -1;
    err = rk_ptr_call (s, 3, 4, a, z, k);
    check (err == 0 && res == 1 && rk_pvar == rk_parr,
	   "reverse offload: a pointer of the region's own sent back by a"
	   " later entry: the device's address, not the host's (err %d,"
	   " res %d)", err, res);
  }
  {
    void *a[4] = { &rk_ps, rk_parr, &rk_ps.p, &res };
    size_t z[4] = { sizeof rk_ps, 0, 0, sizeof res };
    unsigned short k[4] = { TFP, TF, GOMP_HS_REV_ATTACH, FR };
    res = -1;
    err = rk_ptr_call (s, 4, 4, a, z, k);
    check (err == 0 && res == 1 && rk_ps.p == rk_parr,
	   "reverse offload: a pointer to an empty section of the region"
	   " points to its storage (err %d, res %d)", err, res);
  }
  {
    void *a[5] = { rk_parr + 2, &rk_pvar, &rk_ps, &rk_ps.p, &res };
    size_t z[5] = { 3 * sizeof (int), 2 * sizeof (int), sizeof rk_ps,
		    2 * sizeof (int), sizeof res };
    unsigned short k[5] = { TF, GOMP_HS_REV_POINTER, TFP,
			    GOMP_HS_REV_ATTACH, FR };
    res = -1;
    err = rk_ptr_call (s, 5, 5, a, z, k);
    check (err == 0 && res == 1 && rk_parr[3] == 7 && rk_parr[0] == 100
	   && rk_ps.p == rk_parr,
	   "reverse offload: pointers with a bias (the section starts 8"
	   " bytes past them): the host's point 8 bytes before its copy"
	   " (err %d, res %d)", err, res);
  }
  {
    void *a[3] = { &rk_ps, &rk_ps.v, &res };
    size_t z[3] = { 1, sizeof rk_ps.v, sizeof res };
    unsigned short k[3] = { GOMP_HS_REV_STRUCT | RK_ALIGN_PTR,
			    GOMP_HS_REV_ALWAYS_PRESENT_TO | RK_ALIGN_INT, FR };
    res = -1;
    runs = rk_case_runs;
    err = rk_ptr_call (s, 6, 3, a, z, k);
    check (err == ENXIO && rk_case_runs == runs,
	   "reverse offload: a present member of a structure that is not"
	   " present, itself not present: refused (ENXIO) (err %d)", err);
    gomp_target_rev_map_add (REV_TID, (uintptr_t) &rk_ps_host.v,
			     (uintptr_t) (&rk_ps_host.v + 1),
			     (uintptr_t) &rk_ps.v);
    rk_ps_host.v = 0;
    rk_ps.v = 33;
    rk_case = 6;
    err = hs_target_rev (s->dev, rk_ptr_id, 3, a, z, k);
    gomp_target_rev_map_remove (REV_TID, (uintptr_t) &rk_ps_host.v,
				(uintptr_t) (&rk_ps_host.v + 1));
    check (err == 0 && res == 1,
	   "reverse offload: ... present on its own: the host's, with the"
	   " device's value (always) (err %d, res %d)", err, res);
  }
}

/* Pointers to what the region does not map, "present", and requests
   the host refuses.  */

static int rk_misc_runs;

static void
rk_misc_body (void *data)
{
  void **a = data;
  struct rk_desc *d = a[0];
  int *res = a[2];
  *res = d->data == NULL;
  rk_misc_runs++;
}

static const char rk_misc_id[] = "rk_misc@rev-kinds.c#1";
static const void *const rk_misc_table[]
  = { rk_misc_id, (const void *) rk_misc_body };

static int rk_present_host[4];
static int rk_present_dev[4];

static void
rk_present_body (void *data)
{
  void **a = data;
  int *p = a[0], *res = a[1];
  *res = p == rk_present_host && p[2] == 3;
  p[1] = 42;
}

static const char rk_present_id[] = "rk_present@rev-kinds.c#1";
static const void *const rk_present_table[]
  = { rk_present_id, (const void *) rk_present_body };

static void
rk_test_misc (struct sim *s)
{
  struct rk_desc d;
  int res = -1, runs, k;
  void *addrs[3] = { &d, &d.data, &res };
  size_t sizes[3] = { sizeof d, 0, sizeof res };
  unsigned short kinds[3] = { GOMP_HS_REV_TO_PSET | RK_ALIGN_PTR,
			      GOMP_HS_REV_POINTER,
			      GOMP_HS_REV_FROM | RK_ALIGN_INT };
  int32_t err;

  memset (&d, 0, sizeof d);
  d.data = rk_orphan;
  runs = rk_misc_runs;
  err = hs_target_rev (s->dev, rk_misc_id, 3, addrs, sizes, kinds);
  check (err == EFAULT && rk_misc_runs == runs,
	 "reverse offload: a pointer to what is neither mapped nor present"
	 " is refused (EFAULT), not run (err %d)", err);
  kinds[1] = GOMP_HS_REV_POINTER_ZERO_LEN;
  err = hs_target_rev (s->dev, rk_misc_id, 3, addrs, sizes, kinds);
  check (err == 0 && res == 1 && rk_misc_runs == runs + 1
	 && d.data == rk_orphan,
	 "reverse offload: ... unless zero-length sections may be missing:"
	 " NULL for the host, the device's pointer as it was (err %d)", err);

  {
    void *pa[2] = { rk_present_dev, &res };
    size_t ps[2] = { sizeof rk_present_dev, sizeof res };
    unsigned short pk[2] = { GOMP_HS_REV_FORCE_PRESENT | RK_ALIGN_INT,
			     GOMP_HS_REV_FROM | RK_ALIGN_INT };
    for (k = 0; k < 4; k++)
      {
	rk_present_dev[k] = k + 1;
	rk_present_host[k] = 0;
      }
    res = -1;
    err = hs_target_rev (s->dev, rk_present_id, 2, pa, ps, pk);
    check (err == ENXIO && res == -1,
	   "reverse offload: present, but not present: refused (ENXIO),"
	   " not run (err %d)", err);
    gomp_target_rev_map_add (REV_TID, (uintptr_t) rk_present_host,
			     (uintptr_t) (rk_present_host + 4),
			     (uintptr_t) rk_present_dev);
    pk[0] = GOMP_HS_REV_ALWAYS_PRESENT_TOFROM | RK_ALIGN_INT;
    err = hs_target_rev (s->dev, rk_present_id, 2, pa, ps, pk);
    gomp_target_rev_map_remove (REV_TID, (uintptr_t) rk_present_host,
				(uintptr_t) (rk_present_host + 4));
    check (err == 0 && res == 1 && rk_present_host[1] == 42
	   && rk_present_dev[1] == 42 && rk_present_dev[0] == 1,
	   "reverse offload: always, present: the host's data takes the"
	   " device's, and goes back (err %d, res %d)", err, res);
  }

  {
    /* Hand-made requests the host must refuse.  */
    static const struct { uint32_t kind; uint64_t size; const char *what; }
      bad[] = {
	{ 8, 0, "kind 8 (force_deviceptr)" },
	{ GOMP_HS_REV_STRUCT, 2, "a structure with more members than"
	  " entries after it" },
	{ GOMP_HS_REV_STRUCT, 0, "a structure of no members" },
	{ GOMP_HS_REV_POINTER, (uint64_t) 1 << 41, "a bias over 2^40" },
	{ GOMP_HS_REV_ZERO_LEN_ARRAY, 4, "a zero-length section of 4"
	  " bytes" },
      };
    unsigned char req[8 + 3 * 24];
    uint64_t got;
    size_t b;
    for (b = 0; b < sizeof bad / sizeof bad[0]; b++)
      {
	struct gomp_hs_rev_map m[3]
	  = { { (uintptr_t) &d, 0, GOMP_HS_REV_ALLOC, 0 },
	      { (uintptr_t) &d, bad[b].size, bad[b].kind, 0 },
	      { (uintptr_t) &d, 0, GOMP_HS_REV_ALLOC, 0 } };
	memcpy (req, "rk_misc", 8);
	memcpy (req + 8, m, sizeof m);
	runs = rk_misc_runs;
	sim_call (s, GOMP_HS_OP_TARGET_REV, 8, 3, 0, req, sizeof req, NULL, 0,
		  &got, &err);
	check (err == EINVAL && rk_misc_runs == runs,
	       "reverse offload: %s refused (err %d)", bad[b].what, err);
      }
    {
      /* A structure inside a structure.  */
      struct gomp_hs_rev_map m[3]
	= { { (uintptr_t) &d, 2, GOMP_HS_REV_STRUCT, 0 },
	    { (uintptr_t) &d, 1, GOMP_HS_REV_STRUCT, 0 },
	    { (uintptr_t) &d, 0, GOMP_HS_REV_ALLOC, 0 } };
      memcpy (req, "rk_misc", 8);
      memcpy (req + 8, m, sizeof m);
      sim_call (s, GOMP_HS_OP_TARGET_REV, 8, 3, 0, req, sizeof req, NULL, 0,
		&got, &err);
      check (err == EINVAL && rk_misc_runs == runs,
	     "reverse offload: a structure as a member of one refused"
	     " (err %d)", err);
    }
  }
}

static void
test_target_rev_kinds (void)
{
  struct sim s;
  sim_start (&s, 4, 64, "stdio");
  GOMP_PLUGIN_host_service_device (s.server, REV_TID);
  GOMP_target_rev_register (1, rk_fortran_table, 1);
  GOMP_target_rev_register (1, rk_struct_table, 1);
  GOMP_target_rev_register (1, rk_misc_table, 1);
  GOMP_target_rev_register (1, rk_present_table, 1);
  GOMP_target_rev_register (1, rk_whole_table, 1);
  GOMP_target_rev_register (1, rk_ptr_table, 1);
  rk_test_fortran (&s);
  rk_test_whole (&s);
  rk_test_pointers (&s);
  rk_test_struct (&s);
  rk_test_misc (&s);
  GOMP_target_rev_unregister (rk_ptr_table);
  GOMP_target_rev_unregister (rk_whole_table);
  GOMP_target_rev_unregister (rk_present_table);
  GOMP_target_rev_unregister (rk_misc_table);
  GOMP_target_rev_unregister (rk_struct_table);
  GOMP_target_rev_unregister (rk_fortran_table);
  sim_stop (&s);
}

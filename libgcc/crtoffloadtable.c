/* Position-independent table of the host's offload tables.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is part of GCC.

   GCC is free software; you can redistribute it and/or modify it under
   the terms of the GNU General Public License as published by the Free
   Software Foundation; either version 3, or (at your option) any later
   version.

   GCC is distributed in the hope that it will be useful, but WITHOUT ANY
   WARRANTY; without even the implied warranty of MERCHANTABILITY or
   FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
   for more details.

   Under Section 7 of GPL version 3, you are granted additional
   permissions described in the GCC Runtime Library Exception, version
   3.1, as published by the Free Software Foundation.

   You should have received a copy of the GNU General Public License and
   a copy of the GCC Runtime Library Exception along with this program;
   see the files COPYING3 and COPYING.RUNTIME respectively.  If not, see
   <http://www.gnu.org/licenses/>.  */

/* lto-wrapper links crtoffloadtable.o into every executable with offload
   code.  It holds __OFFLOAD_TABLE__, four addresses that bracket the
   host's function and variable tables (defined by crtoffloadbegin.o and
   crtoffloadend.o); mkoffload's constructor hands it to GOMP_offload_register.

   GCC 12's libgcc compiles this object without -fPIC, so in a PIE (the
   default on Debian) the table lands in .rodata with absolute relocations
   and every offloading link warns about a text relocation (DT_TEXTREL).
   gomp-gcc points lto-wrapper at this copy, built with -fPIC, where the
   table goes to .data.rel.ro instead.  */

extern const char __offload_func_table[];
extern const char __offload_funcs_end[];
extern const char __offload_var_table[];
extern const char __offload_vars_end[];

__attribute__ ((visibility ("hidden")))
const void *const __OFFLOAD_TABLE__[4] =
{
  __offload_func_table, __offload_funcs_end,
  __offload_var_table, __offload_vars_end
};

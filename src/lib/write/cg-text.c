/* cg-text.c — formatting shared by the views for people. */
#include "config.h"

#include "cg-text.h"

#include "cg-method.h"

void
cg_append_cost_human (GString *out, CgKind kind, CgValue v, gdouble scale)
{
  CgValue u = cg_value_scaled (&kind, v, scale);
  cg_value_append_human (out, kind, u, kind == CG_KIND_REAL ? 2 : 0);
}

void
cg_append_sources (GString *out, CgProfile *p)
{
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *s = cg_profile_source (p, i);
      g_string_append_printf (out, "Profile: %s (%s)", s->path ? s->path : "-", s->format ? s->format : "?");
      if (s->command)
        g_string_append_printf (out, " of: %s", s->command);
      g_string_append_c (out, '\n');
      if (s->note)
        g_string_append_printf (out, "Note: %s\n", s->note);
    }
}

void
cg_append_source_notes (GString *out, CgProfile *p)
{
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *s = cg_profile_source (p, i);
      if (s->note)
        g_string_append_printf (out, "Note (%s): %s\n", s->path ? s->path : "-", s->note);
    }
}

void
cg_append_method_note (GString *out, const CgCosts *costs)
{
  const CgMethodInfo *info = cg_method_info (cg_costs_method (costs));
  g_string_append_printf (out, "Method: %s", cg_method_to_string (cg_costs_method (costs)));
  if (info)
    g_string_append_printf (out, " (%s)", info->note (costs));
}

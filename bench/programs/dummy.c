/* dummy.c — empty monitoring hooks: what calling them costs (Spivey's
 * "Dummy" column). */
void __cyg_profile_func_enter (void *fn, void *site) __attribute__ ((no_instrument_function));
void __cyg_profile_func_exit (void *fn, void *site) __attribute__ ((no_instrument_function));

void
__cyg_profile_func_enter (void *fn, void *site)
{
  (void) fn;
  (void) site;
}

void
__cyg_profile_func_exit (void *fn, void *site)
{
  (void) fn;
  (void) site;
}

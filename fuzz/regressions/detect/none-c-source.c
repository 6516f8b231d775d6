#include <stdio.h>
int main (void) { return printf ("%d;%d\n", 1, 2); }

/* cg-html-assets.h — private: the style sheet and script of cgtree's
 * page, generated at build time from src/lib/html/ by text2c.awk. */
#pragma once

extern const char cg_html_css[];
extern const char cg_html_js[];

/* cg-html-assets.h — private: the style sheet and script of cgtree's
 * page and of its flame graph (cgtree --format=svg), generated at build time from src/lib/html/ by text2c.awk. */
#pragma once

extern const char cg_html_css[];
extern const char cg_html_js[];
extern const char cg_html_svg_css[];
extern const char cg_html_svg_js[];

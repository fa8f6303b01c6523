/* The floor of `atpad render` of a Markdown file on this machine: read the file, parse it
 * with cmark-gfm and GitHub's extensions (autolink, strikethrough, table, tagfilter,
 * tasklist, as atpad does), free the tree, PARSES times (default 1). No mentions, no
 * writing. Reading a GitHub comment parses it once (where a mention may be); writing it
 * for Matrix, Jira or Slack parses it once more (the text with its mentions set apart), so
 * `2` is the least those formats can take. BENCHMARKS.md runs it beside `atpad render`
 * under hyperfine to show where the render budget sits.
 *
 *   cc -O2 scripts/bench/cmark_parse_floor.c -o bench-out/cmark-floor -lcmark-gfm-extensions -lcmark-gfm
 *   hyperfine -N "bench-out/cmark-floor bench-out/composer-1mb.md 2"
 */
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cmark-floor FILE [PARSES]\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc(size > 0 ? size : 1);
    if (fread(text, 1, size, file) != (size_t)size) {
        perror(argv[1]);
        return 1;
    }
    fclose(file);
    int parses = argc > 2 ? atoi(argv[2]) : 1;
    cmark_gfm_core_extensions_ensure_registered();
    const char *names[] = {"autolink", "strikethrough", "table", "tagfilter", "tasklist"};
    for (int n = 0; n < parses; n++) {
        cmark_parser *parser = cmark_parser_new(CMARK_OPT_SOURCEPOS);
        for (int i = 0; i < 5; i++) {
            cmark_syntax_extension *extension = cmark_find_syntax_extension(names[i]);
            if (extension) cmark_parser_attach_syntax_extension(parser, extension);
        }
        cmark_parser_feed(parser, text, size);
        cmark_node *document = cmark_parser_finish(parser);
        cmark_node_free(document);
        cmark_parser_free(parser);
    }
    free(text);
    return 0;
}

/* `treelab plugins [--format text|json]`: every learner, criterion, splitter, pruner and
 * missing-value method, with a one-line summary, its reference and its parameters, straight
 * from the registries. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "treelab/tl_grow.h"
#include "treelab/tl_model.h"

static const char usage[] =
    "usage: treelab plugins [--format text|json]\n"
    "\n"
    "List what a tree can be composed from (criteria, splitters per attribute kind, pruners,\n"
    "missing-value methods), every learner, and the plug-ins of a learner's own slots\n"
    "(soft_tree.gate, soft_tree.shape), each with a one-line summary, its reference and its\n"
    "parameters\n"
    "(type, default, range or choices). A plug-in's parameter P is set as SLOT.P, e.g.\n"
    "  treelab cv DATA --algo tree --set pruner=cost_complexity --set pruner.select=1se\n"
    "\n"
    "options:\n"
    "  --format F  text (default) or json\n"
    "  --help      this text\n";

typedef struct entry {
    const char *name, *summary, *reference, *extra;
    const tl_param_spec *params;
} entry;

static const char *const type_names[] = {"int", "real", "bool", "choice", "string"};

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_entry(const entry *e, int first)
{
    printf("%s\n    {\"name\": ", first ? "" : ",");
    json_str(e->name);
    printf(", \"summary\": ");
    json_str(e->summary);
    printf(", \"reference\": ");
    json_str(e->reference);
    if (e->extra) {
        printf(", \"kinds\": ");
        json_str(e->extra);
    }
    printf(", \"params\": [");
    for (const tl_param_spec *p = e->params; p && p->name; p++) {
        printf("%s\n      {\"name\": ", p == e->params ? "" : ",");
        json_str(p->name);
        printf(", \"type\": \"%s\", \"default\": ", type_names[p->type]);
        json_str(p->def);
        if (p->type == TL_PARAM_INT || p->type == TL_PARAM_DOUBLE)
            printf(", \"min\": %.17g, \"max\": %.17g", p->min, p->max);
        if (p->type == TL_PARAM_CHOICE) {
            printf(", \"choices\": ");
            json_str(p->choices);
        }
        printf(", \"help\": ");
        json_str(p->help);
        putchar('}');
    }
    printf("%s]}", e->params && e->params->name ? "\n    " : "");
}

static void text_entry(const entry *e, int with_params)
{
    printf("  %-20s %s%s%s%s\n", e->name, e->summary, e->extra ? " [" : "",
           e->extra ? e->extra : "", e->extra ? "]" : "");
    if (e->reference && *e->reference)
        printf("  %-20s (%s)\n", "", e->reference);
    for (const tl_param_spec *p = e->params; with_params && p && p->name; p++) {
        printf("  %-20s   %s (%s, default %s", "", p->name, type_names[p->type], p->def);
        if (p->type == TL_PARAM_INT || p->type == TL_PARAM_DOUBLE)
            printf(", %g to %g", p->min, p->max);
        else if (p->type == TL_PARAM_CHOICE)
            printf(", one of %s", p->choices);
        printf("): %s\n", p->help);
    }
}

/* Entry i of section s (0 learners, 1 criteria, 2 splitters, 3 pruners, 4 missing-value
 * methods); 0 past the last. */
static int entry_at(int s, size_t i, entry *e)
{
    memset(e, 0, sizeof *e);
    if (s == 0) {
        const tl_model_type *t = tl_model_at(i);
        if (!t)
            return 0;
        *e = (entry){t->name, t->summary, "", NULL, t->params};
    } else if (s == 1) {
        const tl_criterion_type *t = tl_criterion_at(i);
        if (!t)
            return 0;
        *e = (entry){t->name, t->summary, t->reference,
                     t->tasks & TL_TASK_REGRESSION ? "regression" : "classification", t->params};
    } else if (s == 2) {
        const tl_splitter_type *t = tl_splitter_at(i);
        if (!t)
            return 0;
        int num = (t->kinds & TL_KIND_BIT(TL_ATTR_NUMERIC)) != 0;
        int nom = (t->kinds & TL_KIND_BIT(TL_ATTR_NOMINAL)) != 0;
        *e = (entry){t->name, t->summary, t->reference,
                     num && nom ? "numeric, nominal"
                     : num      ? "numeric"
                                : "nominal",
                     t->params};
    } else if (s == 3) {
        const tl_pruner_type *t = tl_pruner_at(i);
        if (!t)
            return 0;
        *e = (entry){t->name, t->summary, t->reference,
                     t->needs & TL_NEEDS_VALIDATION ? "needs validation rows" : NULL, t->params};
    } else {
        const tl_missing_type *t = tl_missing_at(i);
        if (!t)
            return 0;
        *e = (entry){t->name, t->summary, t->reference, NULL, t->params};
    }
    return 1;
}

/* The plug-ins of learner t's own slots, one section per slot named LEARNER.SLOT. */
static void learner_slots(const tl_model_type *t, int json)
{
    tl_model_plugin pl;
    const char *slot = NULL;
    for (size_t i = 0; t->plugin_at && t->plugin_at(i, &pl); i++) {
        int first = !slot || strcmp(slot, pl.slot);
        if (first && json)
            printf("%s,\n  \"%s.%s\": [", slot ? "\n  ]" : "", t->name, pl.slot);
        else if (first)
            printf("\n%s.%s (set %s = NAME, its parameters as %s.PARAM):\n", t->name, pl.slot,
                   pl.slot, pl.slot);
        entry e = {pl.name, pl.summary, pl.reference, NULL, pl.params};
        if (json)
            json_entry(&e, first);
        else
            text_entry(&e, 1);
        slot = pl.slot;
    }
    if (slot && json)
        fputs("\n  ]", stdout);
}

static int run(int argc, char **argv, tl_err *err)
{
    const char *format = "text";
    tl_cli_opt opts[] = {{"--format", 1, &format}, {NULL, 0, NULL}};
    int n_pos, help;
    if (tl_cli_parse(argc, argv, opts, NULL, 0, &n_pos, NULL, &help, err))
        return err->code;
    if (help) {
        fputs(usage, stdout);
        return TL_OK;
    }
    int json = !strcmp(format, "json");
    if (!json && strcmp(format, "text"))
        return tl_err_set(err, TL_EINVAL, "--format: '%s' is not one of text, json", format);
    static const char *const sections[] = {"learners", "criteria", "splitters", "pruners",
                                           "missing"};
    if (json)
        putchar('{');
    for (int s = 0; s < 5; s++) {
        if (json)
            printf("%s\n  \"%s\": [", s ? "," : "", sections[s]);
        else
            printf("%s%s%s:\n", s ? "\n" : "", sections[s],
                   s ? "" : " (parameters: treelab fit --algo NAME --help)");
        entry e;
        for (size_t i = 0; entry_at(s, i, &e); i++) {
            if (json)
                json_entry(&e, i == 0);
            else
                text_entry(&e, s != 0);
        }
        if (json)
            fputs("\n  ]", stdout);
    }
    for (size_t i = 0; tl_model_at(i); i++) /* learners' own slots, e.g. soft_tree.gate */
        learner_slots(tl_model_at(i), json);
    if (json)
        fputs("\n}\n", stdout);
    return TL_OK;
}

const tl_cli_command tl_cmd_plugins = {"plugins", "list learners and tree plug-ins (text or json)",
                                       usage, run};

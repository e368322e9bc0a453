/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The shell completion scripts in cli/completions/, written from the tables
 * of commands and options: 'shakerand --generate-completion bash' (zsh,
 * fish) prints one. The scripts are kept in the repository and installed
 * from there; tests/python/test_cli_docs.py checks that each is what this
 * writes, so a table changed without writing them again fails the tests.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void header(const char *lines)
{
    fputs(lines, stdout);
    fputs("# Written by 'shakerand --generate-completion SHELL' from the tables of\n"
          "# commands and options in cli/ (cli.c, cmd_*.c): change those and write this\n"
          "# again rather than edit it.\n",
          stdout);
}

/* s in single quotes' stead: ' as '\'' (bash, zsh and fish alike); for
 * zsh's _arguments also [ and ] escaped. */
static void quoted(const char *s, int brackets)
{
    for (; *s != '\0'; s++) {
        if (*s == '\'')
            fputs("'\\''", stdout);
        else if (brackets && (*s == '[' || *s == ']'))
            printf("\\%c", *s);
        else
            putchar(*s);
    }
}

static void choices(const struct cli_option *o)
{
    for (size_t i = 0; o->choice(i) != NULL; i++)
        printf("%s%s", i ? " " : "", o->choice(i));
}

static void summary(const struct cli_command *c)
{
    const char *cut = strstr(c->summary, " (");
    printf("%.*s", (int)(cut != NULL ? (size_t)(cut - c->summary) : strlen(c->summary)),
           c->summary);
}

/* ---- bash --------------------------------------------------------------- */

/* The case pattern of an option: "-n | --size" or "--hex". */
static void bash_pattern(const struct cli_option *o)
{
    if (o->letter != '\0')
        printf("-%c | ", o->letter);
    printf("--%s", o->name);
}

static void bash(void)
{
    header("# SPDX-License-Identifier: MIT OR Apache-2.0\n"
           "# bash completion for shakerand(1). Installed as\n"
           "# share/bash-completion/completions/shakerand; or: source shakerand.bash\n");
    fputs("\n_shakerand()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    if [[ $COMP_CWORD -eq 1 ]]; then\n"
          "        COMPREPLY=($(compgen -W \"",
          stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++)
        printf("%s ", cli_commands[i]->name);
    for (const struct cli_option *o = cli_own_options; o->name != NULL; o++)
        printf("--%s%s", o->name, o[1].name != NULL ? " " : "");
    fputs("\" -- \"$cur\"))\n        return\n    fi\n    case ${COMP_WORDS[1]} in\n", stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++) {
        const struct cli_command *c = cli_commands[i];
        printf("    %s)\n", c->name);
        int values = 0, free_values = 0;
        for (const struct cli_option *o = c->options; o->name != NULL; o++)
            values |= o->value != NULL;
        if (values)
            fputs("        case $prev in\n", stdout);
        for (const struct cli_option *o = c->options; o->name != NULL; o++) {
            if (o->value == NULL)
                continue;
            if (o->complete == COMPLETE_NOTHING) {
                free_values = 1;
                continue;
            }
            fputs("        ", stdout);
            bash_pattern(o);
            if (o->complete == COMPLETE_FILE) {
                fputs(")\n            COMPREPLY=($(compgen -f -- \"$cur\"))\n", stdout);
            } else {
                fputs(")\n            COMPREPLY=($(compgen -W \"", stdout);
                choices(o);
                fputs("\" -- \"$cur\"))\n", stdout);
            }
            fputs("            return ;;\n", stdout);
        }
        if (free_values) {
            const char *sep = "        ";
            for (const struct cli_option *o = c->options; o->name != NULL; o++) {
                if (o->value != NULL && o->complete == COMPLETE_NOTHING) {
                    fputs(sep, stdout);
                    bash_pattern(o);
                    sep = " | ";
                }
            }
            fputs(")\n            return ;; # a value of the user's\n", stdout);
        }
        if (values)
            fputs("        esac\n", stdout);
        fputs("        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W \"", stdout);
        for (const struct cli_option *o = c->options; o->name != NULL; o++)
            printf("--%s%s", o->name, o[1].name != NULL ? " " : "");
        fputs("\" -- \"$cur\"))\n", stdout);
        if (c->complete_operands == COMPLETE_FILE)
            fputs("        else\n            COMPREPLY=($(compgen -f -- \"$cur\"))\n", stdout);
        fputs("        fi ;;\n", stdout);
    }
    fputs("    esac\n}\ncomplete -o filenames -F _shakerand shakerand\n", stdout);
}

/* ---- zsh ---------------------------------------------------------------- */

/* Whether the space-separated list names name. */
static int names(const char *list, const char *name)
{
    const size_t len = strlen(name);
    for (const char *w = list; w != NULL && *w != '\0';) {
        const size_t n = strcspn(w, " ");
        if (n == len && strncmp(w, name, n) == 0)
            return 1;
        w += n + (w[n] == ' ');
    }
    return 0;
}

static void zsh_names(const struct cli_option *o, const char *sep)
{
    if (o->letter != '\0')
        printf("%s-%c", sep, o->letter);
    printf("%s--%s", o->letter != '\0' ? " " : sep, o->name);
}

/* One spec of _arguments: the options it excludes (itself, and those
 * either one's excludes names), its names, its description, its value. */
static void zsh_option(const struct cli_command *c, const struct cli_option *o)
{
    char brief[256];
    if (o->id == CLI_HELP) {
        fputs("'(- *)'{-h,--help}'[show this help]'", stdout);
        return;
    }
    fputs("'(", stdout);
    zsh_names(o, "");
    for (const struct cli_option *p = c->options; p->name != NULL; p++)
        if (p != o && (names(o->excludes, p->name) || names(p->excludes, o->name)))
            zsh_names(p, " ");
    putchar(')');
    const char *suffix = o->value == NULL ? "" : o->letter != '\0' ? "+" : "=";
    if (o->letter != '\0')
        printf("'{-%c%s,--%s%s}'", o->letter, suffix, o->name, o->value != NULL ? "=" : "");
    else
        printf("--%s%s", o->name, suffix);
    cli_option_brief(o, brief, sizeof brief);
    putchar('[');
    quoted(brief, 1);
    putchar(']');
    if (o->value != NULL) {
        printf(":%s", o->name);
        if (o->complete == COMPLETE_FILE) {
            fputs(":_files", stdout);
        } else if (o->complete == COMPLETE_CHOICE) {
            fputs(":(", stdout);
            choices(o);
            putchar(')');
        }
    }
    putchar('\'');
}

static void zsh(void)
{
    header("#compdef shakerand\n"
           "# SPDX-License-Identifier: MIT OR Apache-2.0\n"
           "# zsh completion for shakerand(1). Installed in share/zsh/site-functions.\n");
    fputs("\n_shakerand() {\n    local -a commands\n    commands=(\n", stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++) {
        printf("        '%s:", cli_commands[i]->name);
        summary(cli_commands[i]);
        fputs("'\n", stdout);
    }
    fputs("    )\n    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'shakerand command' commands\n"
          "        _arguments",
          stdout);
    char brief[256];
    for (const struct cli_option *o = cli_own_options; o->name != NULL; o++) {
        cli_option_brief(o, brief, sizeof brief);
        printf(" '(- *)'{-%c,--%s}'[", o->letter, o->name);
        quoted(brief, 1);
        fputs("]'", stdout);
    }
    fputs("\n        return\n    fi\n    local command=$words[2]\n    shift words\n"
          "    (( CURRENT-- ))\n    case $command in\n",
          stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++) {
        const struct cli_command *c = cli_commands[i];
        printf("    %s)\n        _arguments", c->name);
        for (const struct cli_option *o = c->options; o->name != NULL; o++) {
            fputs(" \\\n            ", stdout);
            zsh_option(c, o);
        }
        if (c->operands != NULL) {
            printf(" \\\n            '*:%s%s'", c->operands,
                   c->complete_operands == COMPLETE_FILE ? ":_files" : "");
        }
        fputs(" ;;\n", stdout);
    }
    fputs("    esac\n}\n\n_shakerand \"$@\"\n", stdout);
}

/* ---- fish --------------------------------------------------------------- */

static void fish_option(const char *condition, const struct cli_option *o)
{
    char brief[256];
    printf("complete -c shakerand -n %s", condition);
    if (o->letter != '\0')
        printf(" -s %c", o->letter);
    printf(" -l %s", o->name);
    if (o->value != NULL && o->complete == COMPLETE_FILE)
        fputs(" -r -F", stdout);
    else if (o->value != NULL)
        fputs(" -x", stdout);
    if (o->value != NULL && o->complete == COMPLETE_CHOICE) {
        fputs(" -a '", stdout);
        choices(o);
        putchar('\'');
    }
    cli_option_brief(o, brief, sizeof brief);
    fputs(" -d '", stdout);
    quoted(brief, 0);
    fputs("'\n", stdout);
}

static void fish(void)
{
    header("# SPDX-License-Identifier: MIT OR Apache-2.0\n"
           "# fish completion for shakerand(1). Installed in\n"
           "# share/fish/vendor_completions.d.\n");
    fputs("\nset -l commands", stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++)
        printf(" %s", cli_commands[i]->name);
    fputs("\ncomplete -c shakerand -f\n", stdout);
    const char *first = "\"not __fish_seen_subcommand_from $commands\"";
    for (size_t i = 0; cli_commands[i] != NULL; i++) {
        printf("complete -c shakerand -n %s -a %s -d '", first, cli_commands[i]->name);
        summary(cli_commands[i]);
        fputs("'\n", stdout);
    }
    for (const struct cli_option *o = cli_own_options; o->name != NULL; o++)
        fish_option(first, o);
    char condition[64];
    for (size_t i = 0; cli_commands[i] != NULL; i++) {
        const struct cli_command *c = cli_commands[i];
        snprintf(condition, sizeof condition, "'__fish_seen_subcommand_from %s'", c->name);
        putchar('\n');
        for (const struct cli_option *o = c->options; o->name != NULL; o++)
            fish_option(condition, o);
        if (c->complete_operands == COMPLETE_FILE)
            printf("complete -c shakerand -n %s -F\n", condition);
    }
}

int cli_completion_script(const char *shell)
{
    if (strcmp(shell, "bash") == 0)
        bash();
    else if (strcmp(shell, "zsh") == 0)
        zsh();
    else if (strcmp(shell, "fish") == 0)
        fish();
    else
        return cli_fail(EXIT_USAGE,
                        "--generate-completion takes one of bash, zsh or fish, not '%s'", shell);
    return 0;
}

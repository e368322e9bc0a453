/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The progress display of bytes: see cli.h. */
#define _GNU_SOURCE
#include <stdio.h>

#include "cli.h"
#include "platform.h"

static void human_size(double bytes, char *out, size_t n)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, n, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

void cli_progress_start(struct cli_progress *p, uint64_t total)
{
    p->enabled = platform_is_terminal(2);
    p->shown = 0;
    p->total = total;
    p->start = p->last = platform_monotonic_seconds();
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    const double now = platform_monotonic_seconds();
    if (now - p->start < 0.5 || (now - p->last < 0.2 && done < p->total))
        return;
    p->last = now;
    p->shown = 1;
    const double elapsed = now - p->start, rate = (double)done / elapsed;
    const double fraction = p->total ? (double)done / (double)p->total : 1.0;
    char done_s[32], total_s[32], rate_s[32];
    human_size((double)done, done_s, sizeof done_s);
    human_size((double)p->total, total_s, sizeof total_s);
    human_size(rate, rate_s, sizeof rate_s);
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    const int filled = (int)(fraction * WIDTH);
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    const double eta = rate > 0 ? (double)(p->total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %3.0f%%  %s / %s  %s/s  ETA %02d:%02d ", bar, 100 * fraction, done_s,
            total_s, rate_s, (int)eta / 60, (int)eta % 60);
    fflush(stderr);
}

void cli_progress_finish(struct cli_progress *p)
{
    if (p->shown)
        fputc('\n', stderr);
}

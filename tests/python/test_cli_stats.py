# SPDX-License-Identifier: MIT OR Apache-2.0
"""Chi-square tests of the CLI's int, password, shuffle and pick, each
shown to reject a biased control: a Python implementation of the usual
mistake (modulo reduction, the naive swap-with-any shuffle) fed through the
same statistic must fail where the CLI passes.

The CLI runs are seeded (--seed), so the outcomes are fixed: a test that
passes once passes always, with no false alarms. The level is 0.001."""
import itertools
import random
import subprocess

import pytest

ALPHA = 0.001
# Upper 0.001 critical values of chi-square, for when scipy is absent:
# computed from the series of the regularized incomplete gamma function
# (the small ones are in every table: df 5 -> 20.515, df 23 -> 49.728), and
# checked against scipy below when it is installed.
CRITICAL = {5: 20.515, 6: 22.458, 9: 27.877, 11: 31.264, 18: 42.312, 23: 49.728,
            61: 100.888, 81: 126.083}


def critical(df):
    try:
        from scipy.stats import chi2
    except ImportError:
        return CRITICAL[df]
    return float(chi2.isf(ALPHA, df))


def chi_square(counts, expected):
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected))


def uniform_fits(counts):
    """Goodness of fit to the uniform distribution over len(counts) cells."""
    n = sum(counts)
    stat = chi_square(counts, [n / len(counts)] * len(counts))
    return stat < critical(len(counts) - 1), stat


def table_fits(table):
    """Independence in a contingency table (row and column sums fixed, as
    for the positions of a permutation): (r - 1)(c - 1) degrees of freedom."""
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table)]
    n = sum(rows)
    stat = sum((table[i][j] - rows[i] * cols[j] / n) ** 2 / (rows[i] * cols[j] / n)
               for i in range(len(rows)) for j in range(len(cols)))
    return stat < critical((len(rows) - 1) * (len(cols) - 1)), stat


def run_lines(cli, *args, data=None):
    r = subprocess.run([cli, *args], capture_output=True, input=data, check=True)
    return r.stdout.decode().splitlines()


# ---- int ----------------------------------------------------------------------------

def die_counts(values):
    counts = [0] * 6
    for v in values:
        counts[v - 1] += 1
    return counts


def test_int_die_is_uniform_and_a_modulo_biased_die_is_not(cli):
    n = 600000
    values = [int(x) for x in run_lines(cli, "int", "1", "6", "-n", str(n), "--seed", "d1e5")]
    assert len(values) == n
    fits, stat = uniform_fits(die_counts(values))
    assert fits, stat
    # Control: a byte reduced modulo 6 favours 1-4 (43/256 against 42/256).
    rng = random.Random(6)
    fits, stat = uniform_fits(die_counts(rng.getrandbits(8) % 6 + 1 for _ in range(n)))
    assert not fits, stat


def test_int_wide_range_is_uniform_and_a_32_bit_modulo_is_not(cli):
    # 3e9 values: a 32-bit word reduced modulo 3e9 makes the lowest 1.29e9
    # values twice as likely. Ten equal bins.
    n, width = 100000, 3 * 10 ** 9
    values = [int(x) for x in run_lines(cli, "int", "-1500000000", "1499999999", "-n", str(n),
                                        "--seed", "0b")]

    def bins(vs):
        counts = [0] * 10
        for v in vs:
            counts[v * 10 // width] += 1
        return counts

    fits, stat = uniform_fits(bins(v + 1500000000 for v in values))
    assert fits, stat
    rng = random.Random(32)
    fits, stat = uniform_fits(bins(rng.getrandbits(32) % width for _ in range(n)))
    assert not fits, stat


def test_int_negative_range_is_uniform(cli):
    values = [int(x) for x in run_lines(cli, "int", "-3", "3", "-n", "70000", "--seed", "0c")]
    counts = [values.count(v) for v in range(-3, 4)]
    fits, stat = uniform_fits(counts)
    assert fits, stat


# ---- password -------------------------------------------------------------------------

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def test_password_characters_are_uniform_and_modulo_biased_ones_are_not(cli):
    passwords = run_lines(cli, "password", "-l", "100", "-n", "1000", "--seed", "0a55")
    text = "".join(passwords)
    assert len(text) == 100000
    fits, stat = uniform_fits([text.count(c) for c in ALNUM])
    assert fits, stat
    # Control: a byte modulo 62 makes the first 8 characters 5/4 as likely.
    rng = random.Random(62)
    biased = "".join(ALNUM[rng.getrandbits(8) % 62] for _ in range(100000))
    fits, stat = uniform_fits([biased.count(c) for c in ALNUM])
    assert not fits, stat


def test_password_positions_are_alike(cli):
    # Every position of the password draws from the same distribution:
    # position (10 bins of 2) against character class (upper, lower, digit).
    passwords = run_lines(cli, "password", "-l", "20", "-n", "6000", "--seed", "70")
    table = [[0] * 3 for _ in range(10)]
    for pw in passwords:
        for i, ch in enumerate(pw):
            table[i // 2][0 if ch.isupper() else 1 if ch.islower() else 2] += 1
    fits, stat = table_fits(table)
    assert fits, stat


# ---- shuffle -----------------------------------------------------------------------------

def naive_shuffle(items, rng):
    """The classic mistake: swap each position with any position."""
    items = list(items)
    for i in range(len(items)):
        j = rng.randrange(len(items))
        items[i], items[j] = items[j], items[i]
    return items


def decile_table(order):
    """Rows: the decile of a line's place in the input; columns: the decile
    of its place in the output."""
    n = len(order)
    table = [[0] * 10 for _ in range(10)]
    for out_pos, line in enumerate(order):
        table[line * 10 // n][out_pos * 10 // n] += 1
    return table


def test_shuffle_positions_are_uniform_and_a_naive_shuffle_is_not(cli):
    n = 20000
    data = "".join(f"{i}\n" for i in range(n)).encode()
    order = [int(x) for x in run_lines(cli, "shuffle", "--seed", "5eed", data=data)]
    assert sorted(order) == list(range(n))
    fits, stat = table_fits(decile_table(order))
    assert fits, stat
    fits, stat = table_fits(decile_table(naive_shuffle(range(n), random.Random(20000))))
    assert not fits, stat


PERMUTATIONS = {p: i for i, p in enumerate(itertools.permutations("abcd"))}


def test_shuffle_of_four_lines_reaches_all_24_orders(cli):
    # 480 seeded runs (a process each, so few): every order appears and the
    # counts fit the uniform distribution. This catches, for example,
    # Sattolo's algorithm (j < i instead of j <= i), which makes only the 6
    # cyclic orders; the decile test above would miss it.
    counts = [0] * 24
    for seed in range(480):
        order = tuple(run_lines(cli, "shuffle", "--seed", f"{seed:04x}", data=b"a\nb\nc\nd\n"))
        counts[PERMUTATIONS[order]] += 1
    assert min(counts) > 0, counts
    fits, stat = uniform_fits(counts)
    assert fits, stat
    # Control: Sattolo's algorithm misses 18 of the 24 orders.
    rng, sattolo = random.Random(24), [0] * 24
    for _ in range(480):
        items = list("abcd")
        for i in range(3, 0, -1):
            j = rng.randrange(i)
            items[i], items[j] = items[j], items[i]
        sattolo[PERMUTATIONS[tuple(items)]] += 1
    assert sattolo.count(0) == 18


# ---- pick ------------------------------------------------------------------------------------

def test_pick_is_uniform_in_choice_and_order_and_a_biased_pick_is_not(cli):
    # 5000 of 20000 lines: which lines (their input decile) and in what order
    # (input decile against output decile).
    n, k = 20000, 5000
    data = "".join(f"{i}\n" for i in range(n)).encode()
    chosen = [int(x) for x in run_lines(cli, "pick", "-n", str(k), "--seed", "91c4", data=data)]
    assert len(set(chosen)) == k

    def choice_counts(lines):
        counts = [0] * 10
        for line in lines:
            counts[line * 10 // n] += 1
        return counts

    def order_table(lines):
        table = [[0] * 10 for _ in range(10)]
        for pos, line in enumerate(lines):
            table[line * 10 // n][pos * 10 // k] += 1
        return table

    fits, stat = uniform_fits(choice_counts(chosen))
    assert fits, stat
    fits, stat = table_fits(order_table(chosen))
    assert fits, stat
    # Control: the first K lines of a naive shuffle.
    biased = naive_shuffle(range(n), random.Random(5000))[:k]
    assert not (uniform_fits(choice_counts(biased))[0] and table_fits(order_table(biased))[0])


@pytest.mark.parametrize("df", sorted(CRITICAL))
def test_critical_values_match_scipy_when_present(df):
    scipy_stats = pytest.importorskip("scipy.stats")
    assert abs(scipy_stats.chi2.isf(ALPHA, df) - CRITICAL[df]) < 0.01

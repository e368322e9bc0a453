// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One engine kind, a row of a kind table as the C core's kind_rows (src/engine.c): its name,
 * its shakerand_kind value, the seed length it requires (0: any length), the bytes it hands out
 * between ratchets or rekeys, and how to start its engine. The native path reads its table from
 * the C core ({@link NativeLib#kinds()}); the pure-Java path has its own
 * ({@link JavaEngines#KINDS}), since it reimplements the engines. {@link ShakeRandom.Kind} only
 * names rows, so what a kind is, and which seeds it takes, is said once per backend.
 */
record KindRow(String name, int value, int seedSize, int blockSize,
        Function<byte[], BufferedStream> engine) {

    /** Throws IllegalArgumentException, naming the length, for a seed this kind refuses. */
    void checkSeed(byte[] seed) {
        if (seedSize != 0 && seed.length != seedSize) {
            throw new IllegalArgumentException(name + " takes a seed of exactly " + seedSize
                    + " bytes, not " + seed.length);
        }
    }

    /** A new engine of this kind; the seed is checked first, so a refused one starts nothing. */
    BufferedStream start(byte[] seed) {
        checkSeed(seed);
        return engine.apply(seed);
    }

    /**
     * The row of table that kind names: the constant's name is the row's name in upper case, as
     * the C enum's SHAKERAND_ names are. A constant without a row means the Java API and that
     * backend disagree (a broken build, which KindTableTest catches).
     */
    static KindRow of(List<KindRow> table, ShakeRandom.Kind kind) {
        String name = kind.name().toLowerCase(Locale.ROOT);
        for (KindRow row : table) {
            if (row.name.equals(name)) {
                return row;
            }
        }
        throw new IllegalStateException("shakerand: no engine kind " + name + " in the "
                + (table == JavaEngines.KINDS ? "pure-Java" : "native library's") + " table");
    }
}

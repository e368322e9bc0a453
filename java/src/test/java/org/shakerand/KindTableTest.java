// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Both kind tables against the "kinds" of vectors/shakerand.json (the C core's table, as the
 * reference model records it): the native one read through JNI and the pure-Java one, row for
 * row in order, nothing more or less; and every Kind constant names a row.
 */
class KindTableTest {
    /** The vector file's rows as "name value seed_size block_size" lines. */
    @SuppressWarnings("unchecked")
    static List<String> vectorRows() throws Exception {
        Map<String, Object> root = (Map<String, Object>) TestSupport.readJson("vectors/shakerand.json");
        List<String> rows = new ArrayList<>();
        for (Object o : (List<Object>) root.get("kinds")) {
            Map<String, Object> k = (Map<String, Object>) o;
            rows.add(k.get("name") + " " + k.get("value") + " " + k.get("seed_size") + " "
                    + k.get("block_size"));
        }
        assertTrue(rows.size() >= 4, "kinds in the vector file: " + rows);
        return rows;
    }

    static List<String> rows(List<KindRow> table) {
        List<String> rows = new ArrayList<>();
        for (KindRow r : table) {
            rows.add(r.name() + " " + r.value() + " " + r.seedSize() + " " + r.blockSize());
        }
        return rows;
    }

    @Test
    void nativeTableIsTheVectorFiles() throws Exception {
        assumeTrue(TestSupport.expectNative(), "the native library is off in this run");
        assertTrue(NativeLib.LOADED, NativeLib.STATUS);
        assertEquals(vectorRows(), rows(NativeLib.kinds()));
    }

    @Test
    void pureJavaTableIsTheVectorFiles() throws Exception {
        assertEquals(vectorRows(), rows(JavaEngines.KINDS));
    }

    /**
     * Every constant of the public enum names a row, and its engineName and seedLength are that
     * row's on the active path (the C table's 0, "any length", is the API's -1).
     */
    @Test
    void everyKindConstantIsARow() throws Exception {
        List<String> names = new ArrayList<>();
        for (String row : vectorRows()) {
            names.add(row.substring(0, row.indexOf(' ')));
        }
        List<String> constants = new ArrayList<>();
        for (ShakeRandom.Kind k : ShakeRandom.Kind.values()) {
            constants.add(k.name().toLowerCase(Locale.ROOT));
            KindRow r = k.row();
            assertEquals(k.name().toLowerCase(Locale.ROOT), k.engineName());
            assertEquals(r.name(), k.engineName());
            assertEquals(r.seedSize() == 0 ? -1 : r.seedSize(), k.seedLength(), k.engineName());
        }
        assertEquals(names, constants);
    }
}

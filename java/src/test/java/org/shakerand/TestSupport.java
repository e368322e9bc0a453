// SPDX-License-Identifier: MIT OR Apache-2.0
package org.shakerand;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared helpers: hex, a small JSON reader for the vector files, child JVMs. */
final class TestSupport {
    private TestSupport() {}

    static boolean expectNative() {
        return Boolean.parseBoolean(System.getProperty("shakerand.expectNative", "true"));
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static String toHex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    /**
     * A seed for kind from text: its UTF-8 bytes, or for an engine with a fixed seed length
     * (chacha8rand) that many bytes of SHAKE256 of them.
     */
    static byte[] seed(ShakeRandom.Kind kind, String text) {
        byte[] b = utf8(text);
        return kind.seedLength() < 0 ? b : Sponge.shake256(b, kind.seedLength());
    }

    static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static Path repoFile(String rel) {
        Path p = Paths.get("..").resolve(rel);
        if (!Files.exists(p)) {
            p = Paths.get(rel);
        }
        return p;
    }

    // ---- a minimal JSON reader (objects, arrays, strings, numbers, literals) ----

    static Object parseJson(String text) {
        int[] pos = {0};
        return value(text, pos);
    }

    private static void ws(String s, int[] p) {
        while (p[0] < s.length() && Character.isWhitespace(s.charAt(p[0]))) {
            p[0]++;
        }
    }

    private static Object value(String s, int[] p) {
        ws(s, p);
        char c = s.charAt(p[0]);
        if (c == '{') {
            Map<String, Object> m = new LinkedHashMap<>();
            p[0]++;
            ws(s, p);
            if (s.charAt(p[0]) == '}') {
                p[0]++;
                return m;
            }
            for (;;) {
                ws(s, p);
                String k = (String) value(s, p);
                ws(s, p);
                p[0]++; // ':'
                m.put(k, value(s, p));
                ws(s, p);
                if (s.charAt(p[0]++) == '}') {
                    return m;
                }
            }
        }
        if (c == '[') {
            List<Object> l = new ArrayList<>();
            p[0]++;
            ws(s, p);
            if (s.charAt(p[0]) == ']') {
                p[0]++;
                return l;
            }
            for (;;) {
                l.add(value(s, p));
                ws(s, p);
                if (s.charAt(p[0]++) == ']') {
                    return l;
                }
            }
        }
        if (c == '"') {
            StringBuilder sb = new StringBuilder();
            p[0]++;
            for (;;) {
                char d = s.charAt(p[0]++);
                if (d == '"') {
                    return sb.toString();
                }
                if (d == '\\') {
                    char e = s.charAt(p[0]++);
                    if (e == 'u') {
                        sb.append((char) Integer.parseInt(s.substring(p[0], p[0] + 4), 16));
                        p[0] += 4;
                    } else {
                        sb.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                    }
                } else {
                    sb.append(d);
                }
            }
        }
        int start = p[0];
        while (p[0] < s.length() && ",}] \n\r\t".indexOf(s.charAt(p[0])) < 0) {
            p[0]++;
        }
        String tok = s.substring(start, p[0]);
        if (tok.equals("true") || tok.equals("false")) {
            return Boolean.valueOf(tok);
        }
        if (tok.equals("null")) {
            return null;
        }
        return tok.contains(".") || tok.contains("e") ? (Object) Double.valueOf(tok) : (Object) Long.valueOf(tok);
    }

    static Object readJson(String rel) throws IOException {
        return parseJson(new String(Files.readAllBytes(repoFile(rel)), StandardCharsets.UTF_8));
    }

    // ---- child JVMs ----

    static Process startChild(List<String> jvmArgs, String mainClass, String... args) throws IOException {
        return startChild(Map.of(), jvmArgs, mainClass, args);
    }

    /** A child JVM with native access enabled and env added to this process's environment. */
    static Process startChild(Map<String, String> env, List<String> jvmArgs, String mainClass, String... args)
            throws IOException {
        List<String> all = new ArrayList<>();
        all.add("--enable-native-access=ALL-UNNAMED");
        all.addAll(jvmArgs);
        ProcessBuilder pb = childProcess(all, mainClass, args);
        pb.environment().putAll(env);
        return pb.start();
    }

    static Process startChildExactly(List<String> jvmArgs, String mainClass, String... args) throws IOException {
        return childProcess(jvmArgs, mainClass, args).start();
    }

    private static ProcessBuilder childProcess(List<String> jvmArgs, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add("target/classes" + File.pathSeparator + "target/test-classes");
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true);
    }

    static List<String> output(Process p) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        }
        int status = p.waitFor();
        if (status != 0) {
            throw new AssertionError("child JVM failed (exit " + status + "): " + lines);
        }
        return lines;
    }

    static String field(List<String> lines, String key) {
        for (String l : lines) {
            if (l.startsWith(key + "=")) {
                return l.substring(key.length() + 1);
            }
        }
        throw new AssertionError("no " + key + " in " + lines);
    }
}

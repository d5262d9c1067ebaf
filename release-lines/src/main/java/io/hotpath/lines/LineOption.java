/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.lines;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line option that names release lines, {@code --line} and {@code --lines}: the one class that parses
 * their values into {@link ReleaseLine}s, with the default, the partial-line rule and the one-line errors. Every
 * command and tool reads the option through here (a command's own parser matches {@code case LineOption.LINE} and hands
 * the value over; LineOptionTest fails on any other main source that spells the option), so that "which line does this
 * run" is one rule, and a line travels on as its record.
 *
 * <p>Values:
 * <ul>
 *   <li>a release ({@code 4.9.8}): the line {@code patches/<release>/}; an unknown one is an error naming the known ones;</li>
 *   <li>none: the newest complete line ({@link ReleaseLine#newest}), never a partial one, whatever the command;</li>
 *   <li>{@value #ALL}: every line, where a command allows it (build-broker, patches regenerate);</li>
 *   <li>{@code --lines 4.9.0,4.9.8}: several releases, each once, in the order given (the campaign);</li>
 *   <li>a descriptor folder: the build tools broker-dist runs (BrokerDistBuilder, PatchGenerator) are given
 *       {@code patches/<release>/} by Maven or by bin/hotpath, never by a person.</li>
 * </ul>
 *
 * <p>Errors are {@link ReleaseLineException}s of one line; a module with a usage exception of its own passes the
 * message on unchanged.
 */
public final class LineOption {

    /** One line: a release, {@value #ALL} where a command allows it, or for the build tools a descriptor folder. */
    public static final String LINE = "--line";
    /** Several lines, comma-separated: the campaign's cross-line comparison. */
    public static final String LINES = "--lines";
    /** {@code --line all}: every line of the checkout. */
    public static final String ALL = "all";

    private static final String RELEASE = "\\d+(\\.\\d+)*";

    /**
     * Whether a command runs a line whose descriptor says {@code complete=false} when the line is named. The default is
     * never a partial line ({@link ReleaseLine#newest}).
     */
    public enum Partial {
        /**
         * build-broker, patches regenerate, jmh, the smoke and the campaign: building, patching, measuring and smoking a
         * line is how it gets finished (the smoke and the campaign say that the line is partial; their checks judge the
         * patches it has).
         */
        ACCEPTED,
        /** The profile cluster: it profiles a line's finished build. */
        REFUSED
    }

    private LineOption() {
    }

    /**
     * A {@code --line} value read before the checkout is known (the smoke's and the campaign's options): a release such
     * as 4.9.0. Whether the line exists is {@link #resolve}'s to say.
     */
    public static String release(String value) {
        if (!value.matches(RELEASE)) {
            throw error(LINE + " must be a release such as 4.9.0, got '" + value + "'");
        }
        return value;
    }

    /** A {@code --lines} value: at least one release, each once, in the order given; spaces around a comma are dropped. */
    public static List<String> releases(String value) {
        List<String> releases = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String release = part.strip();
            if (!release.matches(RELEASE)) {
                throw error(LINES + " must be comma-separated releases such as 4.9.0,4.9.8, got '" + value + "'");
            }
            if (releases.contains(release)) {
                throw error(LINES + " names " + release + " twice, got '" + value + "'");
            }
            releases.add(release);
        }
        return List.copyOf(releases);
    }

    /** {@code --line} and {@code --lines} name the lines of one run: a command that takes both takes one of them. */
    public static void oneOf(String line, List<String> lines) {
        if (line != null && !lines.isEmpty()) {
            throw error(LINE + " and " + LINES + " cannot be combined (" + LINES + " " + String.join(",", lines)
                + " already runs stock and patched of each line)");
        }
    }

    /**
     * The line {@code requested} names, or the newest complete line when it is null; an unknown release is an error
     * naming the known lines, and a partial line one saying how to build it where the command refuses it.
     */
    public static ReleaseLine resolve(String requested, Path patchesRoot, Partial partial) {
        ReleaseLine line = ReleaseLine.resolve(requested, patchesRoot);
        if (!line.complete() && partial == Partial.REFUSED) {
            throw error("release line '" + line.release() + "' is partial (complete=false in its " + ReleaseLine.DESCRIPTOR
                + "): the end-to-end checks need every patch of a line; build and test it with bin/hotpath build-broker "
                + LINE + " " + line.release());
        }
        return line;
    }

    /**
     * The lines of a command that takes {@code --line} or {@code --lines}: every {@code lines} line in the order given,
     * else the {@code line} (or the default); each resolved before any is used, so a bad one fails the run up front.
     */
    public static List<ReleaseLine> resolve(String line, List<String> lines, Path patchesRoot, Partial partial) {
        oneOf(line, lines);
        if (lines.isEmpty()) {
            return List.of(resolve(line, patchesRoot, partial));
        }
        return lines.stream().map(release -> resolve(release, patchesRoot, partial)).toList();
    }

    /** A {@code --line} value where {@value #ALL} is allowed: every line (partial ones too), or the one named. */
    public static List<ReleaseLine> resolveOrAll(String value, Path patchesRoot) {
        return value.equals(ALL) ? ReleaseLine.all(patchesRoot) : List.of(resolve(value, patchesRoot, Partial.ACCEPTED));
    }

    /** The build tools' {@code --line}: the line's descriptor folder, {@code patches/<release>/}. */
    public static ReleaseLine folder(String value) {
        return ReleaseLine.load(Path.of(value).toAbsolutePath().normalize());
    }

    /** Every release of the checkout, oldest first: what an error or a usage text offers. */
    public static List<String> known(Path patchesRoot) {
        return ReleaseLine.all(patchesRoot).stream().map(ReleaseLine::release).toList();
    }

    /** What a {@code --line} without a value needs, naming the known lines; {@code all}: {@value #ALL} is allowed too. */
    public static String expected(Path patchesRoot, boolean all) {
        return "a release line" + (all ? " or '" + ALL + "'" : "") + " (known lines: " + String.join(", ", known(patchesRoot)) + ")";
    }

    private static ReleaseLineException error(String message) {
        return new ReleaseLineException(message);
    }
}

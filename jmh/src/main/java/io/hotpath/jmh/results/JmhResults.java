package io.hotpath.jmh.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** JMH's own {@code -rf json} output, read as one row per benchmark method and parameter set. */
public final class JmhResults {

    /** One benchmark method with one parameter set: its ns/op with JMH's error, its B/op, and how it was run. */
    public static final class Row {
        public final String benchmark;
        public final String method;
        public final Map<String, String> params;
        public final double score;
        public final double error;
        public final String unit;
        /** gc.alloc.rate.norm, or NaN without -prof gc. */
        public final double bytesPerOp;
        public final int forks;
        public final int warmupIterations;
        public final int iterations;
        public final String warmupTime;
        public final String time;
        public final String jmhVersion;
        public final String jdkVersion;

        Row(JsonObject r) {
            String full = r.get("benchmark").getAsString();
            int dot = full.lastIndexOf('.');
            String cls = full.substring(0, dot);
            benchmark = cls.substring(cls.lastIndexOf('.') + 1);
            method = full.substring(dot + 1);
            params = new TreeMap<>();
            if (r.has("params")) {
                for (Map.Entry<String, JsonElement> p : r.getAsJsonObject("params").entrySet()) {
                    params.put(p.getKey(), p.getValue().getAsString());
                }
            }
            JsonObject primary = r.getAsJsonObject("primaryMetric");
            score = primary.get("score").getAsDouble();
            // JMH writes "NaN" when a single measurement gives no error estimate
            error = primary.get("scoreError").isJsonPrimitive() && primary.get("scoreError").getAsJsonPrimitive().isNumber()
                ? primary.get("scoreError").getAsDouble() : Double.NaN;
            unit = primary.get("scoreUnit").getAsString();
            JsonObject secondary = r.getAsJsonObject("secondaryMetrics");
            bytesPerOp = secondary != null && secondary.has("gc.alloc.rate.norm")
                ? secondary.getAsJsonObject("gc.alloc.rate.norm").get("score").getAsDouble() : Double.NaN;
            forks = r.get("forks").getAsInt();
            warmupIterations = r.get("warmupIterations").getAsInt();
            iterations = r.get("measurementIterations").getAsInt();
            warmupTime = r.get("warmupTime").getAsString();
            time = r.get("measurementTime").getAsString();
            jmhVersion = r.get("jmhVersion").getAsString();
            jdkVersion = r.get("jdkVersion").getAsString();
        }
    }

    public final List<Row> rows;

    private JmhResults(List<Row> rows) {
        this.rows = rows;
    }

    public static JmhResults parse(String json) {
        List<Row> rows = new ArrayList<>();
        for (JsonElement e : JsonParser.parseString(json).getAsJsonArray()) {
            rows.add(new Row(e.getAsJsonObject()));
        }
        return new JmhResults(rows);
    }

    /** The row of {@code Benchmark.method} with {@code param=value}; bad input when the run did not measure it. */
    public Row row(String benchmark, String method, String param, String value) {
        return find(benchmark, method, param, value).orElseThrow(() -> new IllegalArgumentException("the results have no "
            + benchmark + "." + method + " with " + param + "=" + value));
    }

    /** The row of {@code Benchmark.method} with {@code param=value}, if the run measured it. */
    public Optional<Row> find(String benchmark, String method, String param, String value) {
        for (Row r : rows) {
            if (r.benchmark.equals(benchmark) && r.method.equals(method) && value.equals(r.params.get(param))) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}

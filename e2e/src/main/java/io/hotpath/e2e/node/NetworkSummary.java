package io.hotpath.e2e.node;

import io.hotpath.e2e.spec.NetMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The record of a run's network: its mode, the addresses, the shaping asked for and what {@link LinkCheck}
 * measured before the servers started. Reported in smoke-result.json, campaign.json, the summaries and the
 * campaign report header.
 */
public record NetworkSummary(NetMode mode, Map<String, String> addresses, int delayMicrosEachWay, int rateMbit,
                             double rttMillis, double rttMaxMillis, double loopbackRttMillis, double throughputMbit) {

    public static final NetworkSummary LOOPBACK = new NetworkSummary(NetMode.LOOPBACK, Map.of(), 0, 0, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** "netem 30 us each way + tbf 1000 Mbit/s per link", or the rate alone when the kernel has no netem. */
    public String shaping() {
        return mode == NetMode.LOOPBACK ? "none (loopback)" : shaping(delayMicrosEachWay, rateMbit);
    }

    static String shaping(int delayMicrosEachWay, int rateMbit) {
        String rate = "tbf " + rateMbit + " Mbit/s per link";
        return delayMicrosEachWay > 0 ? "netem " + delayMicrosEachWay + " us each way + " + rate
                : rate + ", no added delay (kernel without sch_netem)";
    }

    /** "controller 10.213.0.1, namesrv 10.213.0.10, ..." */
    static String hosts(Map<String, String> addresses) {
        StringJoiner hosts = new StringJoiner(", ");
        addresses.forEach((name, host) -> hosts.add(name + " " + host));
        return hosts.toString();
    }

    /** One line for the Markdown report header and the smoke summary. */
    public String describe() {
        if (mode == NetMode.LOOPBACK) {
            return "loopback (every node on 127.0.0.1 of the run's private namespace, unshaped)";
        }
        return String.format(Locale.ROOT, "realistic (a namespace per node, veth + bridge: %s; %s); measured TCP round"
                        + " trip controller -> broker-a %.3f ms (slowest node %.3f ms; loopback %.3f ms), broker-a ->"
                        + " controller %.0f Mbit/s",
                hosts(addresses), shaping(), rttMillis, rttMaxMillis, loopbackRttMillis, throughputMbit);
    }

    /** JSON fields (without braces) for smoke-result.json and campaign.json. */
    public List<String> jsonFields() {
        List<String> fields = new ArrayList<>();
        fields.add("\"net\": \"" + mode.option() + "\"");
        if (mode == NetMode.LOOPBACK) {
            return fields;
        }
        StringJoiner hosts = new StringJoiner(", ", "{", "}");
        addresses.forEach((name, host) -> hosts.add("\"" + name + "\": \"" + host + "\""));
        fields.add("\"netAddresses\": " + hosts);
        fields.add("\"netShaping\": \"" + shaping() + "\"");
        fields.add("\"netDelayUsEachWay\": " + delayMicrosEachWay);
        fields.add("\"netRateMbit\": " + rateMbit);
        fields.add(String.format(Locale.ROOT, "\"netRttMs\": %.3f", rttMillis));
        fields.add(String.format(Locale.ROOT, "\"netRttMaxMs\": %.3f", rttMaxMillis));
        fields.add(String.format(Locale.ROOT, "\"netLoopbackRttMs\": %.3f", loopbackRttMillis));
        fields.add(String.format(Locale.ROOT, "\"netThroughputMbit\": %.0f", throughputMbit));
        return fields;
    }
}

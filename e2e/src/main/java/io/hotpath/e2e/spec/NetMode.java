package io.hotpath.e2e.spec;

import io.hotpath.e2e.UsageException;
import java.util.Arrays;
import java.util.Locale;

/**
 * The network the cluster runs on ({@code --net}). {@link #LOOPBACK}: every node on 127.0.0.1 of the run's
 * private namespace, as CI runs it. {@link #REALISTIC}: every node in a network namespace of its own with
 * its own address, on shaped veth links to the controller ({@code ClusterNetwork}).
 */
public enum NetMode {
    LOOPBACK("loopback"),
    REALISTIC("realistic");

    private final String option;

    NetMode(String option) {
        this.option = option;
    }

    public String option() {
        return option;
    }

    public static NetMode parse(String text) {
        return Arrays.stream(values()).filter(m -> m.option.equals(text.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new UsageException("--net must be one of "
                        + Arrays.stream(values()).map(NetMode::option).toList() + ", got '" + text + "'"));
    }
}

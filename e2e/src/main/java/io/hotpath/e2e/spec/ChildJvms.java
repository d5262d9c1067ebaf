package io.hotpath.e2e.spec;

import java.util.List;

/**
 * What the JVMs a cluster run starts need, for the code that starts them without the client library on its class path
 * (module cli's launcher): the JDK 17 flags RocketMQ's classes need, and the modules of the smoke's newer-client child
 * JVMs with the system property that hands each its class path. {@code check.NewerClientCheck}'s clients name these
 * modules; SharedFactsTest keeps the copies equal.
 */
public final class ChildJvms {

    /** rocketmq.jdk17.flags of the root pom: 4.9.x servers and clients on JDK 17. */
    public static final List<String> JDK17_FLAGS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

    /** The Maven modules of the newer-client child JVMs; nothing depends on them, so the launcher builds them. */
    public static final List<String> CLIENT_MODULES = List.of("e2e-client498", "e2e-client533", "e2e-client550");

    private ChildJvms() {
    }

    /** {@code hotpath.e2e.client498.classpath} for module e2e-client498. */
    public static String classpathProperty(String module) {
        return "hotpath.e2e." + module.substring("e2e-".length()) + ".classpath";
    }
}

package io.hotpath.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/** A project checkout in a temporary folder: release line descriptors with one patch each, and built distributions. */
record Checkout(Path root) {

    /** A line with one patch; returns the patch's SHA-256 (what a patched distribution's BUILD-INFO names). */
    String line(String release, boolean complete) throws Exception {
        Path dir = Files.createDirectories(root.resolve("patches").resolve(release));
        Files.writeString(dir.resolve("line.properties"), "release=" + release + "\n"
            + "source.release=org.apache.rocketmq:rocketmq-all:" + release + ":zip:source-release\n"
            + "oracle=org.apache.rocketmq:" + release + "\nupstream.tests.modules=common\n"
            + (complete ? "" : "complete=false\n"));
        Files.writeString(dir.resolve("0001-common-x.patch"), "Subject: [PATCH] x\n");
        Files.writeString(dir.resolve("series"), "0001-common-x.patch\n");
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve("0001-common-x.patch"))));
    }

    void dist(String release, String flavor, String patches) throws IOException {
        Path home = Files.createDirectories(root.resolve("broker-dist/target/rocketmq-" + release + "-" + flavor));
        Files.writeString(home.resolve("BUILD-INFO.txt"), "flavor=" + flavor + "\nupstream.version=" + release + "\n" + patches);
    }
}

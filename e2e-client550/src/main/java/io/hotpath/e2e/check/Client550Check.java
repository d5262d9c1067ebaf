package io.hotpath.e2e.check;

import org.apache.rocketmq.common.MQVersion;

/**
 * The child JVM of {@link NewerClientCheck} for rocketmq-client 5.5.0: compiled against it, with nothing of 4.9.0 on the
 * classpath; {@link NewerClientChild} does the work, this class only reports the client version it was built with.
 */
public final class Client550Check {

    private Client550Check() {
    }

    public static void main(String[] args) throws Exception {
        NewerClientChild.main(NewerClientCheck.CLIENT_550, MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION), args);
    }
}

package io.hotpath.e2e.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LauncherWatchdogTest {

    @Test
    void theEndOfThePipeIsTheLauncherGoneAndNothingBefore() throws Exception {
        PipedOutputStream launcher = new PipedOutputStream();
        InputStream pipe = new PipedInputStream(launcher);
        CountDownLatch gone = new CountDownLatch(1);

        Thread watchdog = LauncherWatchdog.watch(pipe, gone::countDown);
        launcher.write('x'); // bytes on the pipe are no news
        launcher.flush();

        assertThat(gone.await(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(watchdog.isDaemon()).isTrue();
        launcher.close();
        assertThat(gone.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aPipeThatFailsCountsAsGone() throws Exception {
        CountDownLatch gone = new CountDownLatch(1);
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Broken pipe");
            }
        };

        LauncherWatchdog.watch(broken, gone::countDown);

        assertThat(gone.await(5, TimeUnit.SECONDS)).isTrue();
    }
}

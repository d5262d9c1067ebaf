package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which newer clients a line's smoke runs, and the system property that hands each child its classpath. */
class NewerClientCheckTest {

    @Test
    void aLineRunsPerMajorReleaseUpToItsOwnTheNewestClientNotNewerThanItElseTheOldest() {
        assertThat(NewerClientCheck.clientsFor("4.9.0")).containsExactly(NewerClientCheck.CLIENT_498);
        assertThat(NewerClientCheck.clientsFor("4.9.8")).containsExactly(NewerClientCheck.CLIENT_498);
        assertThat(NewerClientCheck.clientsFor("5.3.3")).containsExactly(NewerClientCheck.CLIENT_498, NewerClientCheck.CLIENT_533);
        assertThat(NewerClientCheck.clientsFor("5.5.0")).containsExactly(NewerClientCheck.CLIENT_498, NewerClientCheck.CLIENT_550);
        assertThat(NewerClientCheck.clientsFor("5.5.1")).containsExactly(NewerClientCheck.CLIENT_498, NewerClientCheck.CLIENT_550);
        // older than every 5.x client: the oldest 5.x one
        assertThat(NewerClientCheck.clientsFor("5.0.0")).containsExactly(NewerClientCheck.CLIENT_498, NewerClientCheck.CLIENT_533);
    }

    @Test
    void eachClientHasItsOwnTopicDirectoryAndClasspathProperty() {
        assertThat(NewerClientCheck.CLIENT_498.classpathProperty()).isEqualTo("hotpath.e2e.client498.classpath");
        assertThat(NewerClientCheck.CLIENT_533.classpathProperty()).isEqualTo("hotpath.e2e.client533.classpath");
        assertThat(NewerClientCheck.CLIENT_550.classpathProperty()).isEqualTo("hotpath.e2e.client550.classpath");
        assertThat(NewerClientCheck.CLIENT_498.dir()).isEqualTo("client-4.9.8");
        assertThat(NewerClientCheck.CLIENTS).extracting(NewerClientCheck.Client::topic).doesNotHaveDuplicates();
    }
}

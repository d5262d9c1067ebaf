package io.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract against the candidate (ours; 4.9.8 with -Dhotpath.candidate=upstream), plus what
 * only ours promises: the map is untouched and the ByteBuffer entry point writes the same bytes.
 */
class PersistedPropertiesContractTest extends PersistedPropertiesContract {

    @Override
    protected PersistedPropertiesImpl impl() {
        return PersistedPropertiesImpl.candidate();
    }

    /** A null map is no input of upstream's (its parse always returns a map); ours writes nothing for it. */
    @Test
    void writesNothingForANullMap() {
        assertThat(PersistedProperties.messageProperties2Bytes(null)).isEmpty();
    }

    @Test
    void leavesTheMapsEntriesAndOrderUntouched() {
        Map<String, String> map = plainProducerMessage();
        List<Map.Entry<String, String>> before = new ArrayList<>(map.entrySet());
        PersistedProperties.messageProperties2Bytes(map);
        assertThat(new ArrayList<>(map.entrySet())).isEqualTo(before);
    }

    @Test
    void writesTheSameBytesIntoHeapSliceAndDirectBuffers() {
        Map<String, String> map = plainProducerMessage();
        byte[] expected = PersistedProperties.messageProperties2Bytes(map);
        ByteBuffer backing = ByteBuffer.allocate(300);
        backing.position(13);
        ByteBuffer slice = backing.slice(); // arrayOffset 13
        ByteBuffer direct = ByteBuffer.allocateDirect(300);
        direct.position(5);
        for (ByteBuffer target : List.of(ByteBuffer.allocate(90), slice, direct)) {
            int start = target.position();
            assertThat(PersistedProperties.encode(map, target)).isEqualTo(90);
            assertThat(target.position()).isEqualTo(start + 90);
            byte[] written = new byte[90];
            target.position(start);
            target.get(written);
            assertThat(written).isEqualTo(expected);
        }
    }

    @Test
    void leavesATooSmallBufferUnchanged() {
        ByteBuffer target = ByteBuffer.allocate(89);
        assertThatThrownBy(() -> PersistedProperties.encode(plainProducerMessage(), target))
            .isInstanceOf(BufferOverflowException.class);
        assertThat(target.position()).isZero();
        assertThat(target.array()).containsOnly(0);
    }

    @Test
    void writesNothingIntoABufferForANullMap() {
        ByteBuffer target = ByteBuffer.allocate(0);
        assertThat(PersistedProperties.encode(null, target)).isZero();
    }

    @Test
    void encodesCorrectlyAfterABlockLargerThanTheRetainedScratch() {
        String big = "\u4e2d".repeat(60_000); // 180,000 bytes: the per-thread scratch grows, then is dropped
        for (int i = 0; i < 3; i++) {
            assertThat(PersistedProperties.messageProperties2Bytes(linked("k", big)))
                .isEqualTo(("k\1" + big).getBytes(StandardCharsets.UTF_8));
            assertThat(PersistedProperties.messageProperties2Bytes(plainProducerMessage())).hasSize(90);
        }
    }

    @Test
    void survivesAMapThatEncodesAgainWhileIterated() {
        Map<String, String> backing = linked("a", "1", "b", "2");
        Map<String, String> reentrant = new AbstractMap<>() {
            @Override
            public Set<Entry<String, String>> entrySet() {
                return new AbstractSet<>() {
                    @Override
                    public Iterator<Entry<String, String>> iterator() {
                        Iterator<Entry<String, String>> it = backing.entrySet().iterator();
                        return new Iterator<>() {
                            @Override
                            public boolean hasNext() {
                                return it.hasNext();
                            }

                            @Override
                            public Entry<String, String> next() {
                                // same thread, outer scratch half written
                                PersistedProperties.messageProperties2Bytes(linked("zzzz", "zzzz"));
                                return it.next();
                            }
                        };
                    }

                    @Override
                    public int size() {
                        return backing.size();
                    }
                };
            }
        };
        assertThat(PersistedProperties.messageProperties2Bytes(reentrant))
            .isEqualTo(("a\u0001" + "1\u0002b\u0001" + "2").getBytes(StandardCharsets.UTF_8));
    }
}

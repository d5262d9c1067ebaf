package io.hotpath.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.rocketmq.common.message.MessageConst;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the parse relies on from {@link PropertyNames}: every lookup equals {@code substring}, whatever the
 * table holds; system names come back as the constants; other names are remembered up to the bounds, and
 * a full table stays correct. Uses fresh tables so that no test depends on what other suites parsed before.
 */
class PropertyNamesTest {

    private static String region(String name) {
        return "x\1" + name + "\2";
    }

    /** What a parse does with a name: the held String, else a fresh substring that the table then remembers. */
    private static String lookup(PropertyNames table, String name) {
        String s = region(name);
        String held = table.find(s, 2, 2 + name.length());
        if (held != null) {
            return held;
        }
        String fresh = s.substring(2, 2 + name.length());
        table.add(fresh);
        return fresh;
    }

    @Test
    void systemNamesComeBackAsTheConstants() {
        PropertyNames table = new PropertyNames();
        for (String name : new String[] {MessageConst.PROPERTY_KEYS, MessageConst.PROPERTY_TAGS,
            MessageConst.PROPERTY_WAIT_STORE_MSG_OK, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
            MessageConst.PROPERTY_CLUSTER, MessageConst.PROPERTY_DELAY_TIME_LEVEL, MessageConst.PROPERTY_REAL_TOPIC,
            MessageConst.PROPERTY_TRANSACTION_PREPARED, MessageConst.PROPERTY_MESSAGE_TYPE}) {
            assertThat(lookup(table, new String(name.toCharArray()))).isSameAs(name);
        }
    }

    @Test
    void anotherNameIsRememberedAfterItsFirstLookup() {
        PropertyNames table = new PropertyNames();
        String first = lookup(table, "orderType");
        assertThat(first).isEqualTo("orderType");
        assertThat(lookup(table, "orderType")).isSameAs(first);
        assertThat(lookup(table, "orderTypf")).isEqualTo("orderTypf").isNotSameAs(first);
    }

    @Test
    void nonLatin1NamesAreComparedByChar() {
        PropertyNames table = new PropertyNames();
        String first = lookup(table, "城市");
        assertThat(lookup(table, "城市")).isSameAs(first).isEqualTo("城市");
        assertThat(lookup(table, "城帀")).isEqualTo("城帀");
    }

    @Test
    void longNamesAreNotRemembered() {
        PropertyNames table = new PropertyNames();
        String sixtyFour = "k".repeat(64);
        String sixtyFive = "k".repeat(65);
        assertThat(lookup(table, sixtyFour)).isSameAs(lookup(table, sixtyFour));
        String first = lookup(table, sixtyFive);
        assertThat(lookup(table, sixtyFive)).isEqualTo(sixtyFive).isNotSameAs(first);
    }

    @Test
    void aFloodOfDistinctNamesFillsTheTableAndEveryLookupStaysEqual() {
        PropertyNames table = new PropertyNames();
        for (int i = 0; i < 20_000; i++) {
            String name = "user" + i;
            assertThat(lookup(table, name)).isEqualTo(name);
        }
        assertThat(lookup(table, MessageConst.PROPERTY_KEYS)).isSameAs(MessageConst.PROPERTY_KEYS);
        String late = "arrivedAfterTheFlood";
        assertThat(lookup(table, late)).isEqualTo(late);
        assertThat(table.find(region(""), 2, 2)).isEmpty();
    }

    @Test
    void concurrentLookupsOfSharedAndDistinctNamesStayEqual() throws Exception {
        PropertyNames table = new PropertyNames();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final int thread = t;
                results.add(pool.submit(() -> {
                    int wrong = 0;
                    for (int i = 0; i < 50_000; i++) {
                        String name = (i % 3 == 0 ? "t" + thread + "_" : "shared") + (i % 500);
                        if (!lookup(table, name).equals(name)) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get()).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void booleanValuesComeBackAsTheConstantsAndNothingElseIsHeld() {
        String s = "a\1true\2b\1false\2c\1trUe\2d\1fals\2e\1frue\2";
        assertThat(PropertyNames.heldValue(s, 2, 6)).isSameAs("true");
        assertThat(PropertyNames.heldValue(s, 9, 14)).isSameAs("false");
        assertThat(PropertyNames.heldValue(s, 17, 21)).isNull();
        assertThat(PropertyNames.heldValue(s, 24, 28)).isNull();
        assertThat(PropertyNames.heldValue(s, 31, 35)).isNull();
        assertThat(PropertyNames.heldValue(s, 0, 0)).isNull();
    }

    @Test
    void theSharedTableHoldsTheSystemNames() {
        String s = region(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        assertThat(PropertyNames.held(s, 2, s.length() - 1)).isSameAs(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
    }
}

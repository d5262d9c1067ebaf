package io.hotpath.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.hotpath.dist.store.probe.PropertiesLimitProbe;
import io.hotpath.dist.store.shared.LimitPut;
import io.hotpath.dist.store.shared.Release;
import io.hotpath.dist.store.shared.StoreLimit;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * The 32767-byte properties limit through both stores' normal put path: the PATCHED 4.9.0 {@code DefaultMessageStore}
 * and the REAL 4.9.8 one (as in {@link Upstream498StoreComparisonTest}, each in its own class loader), plus unpatched
 * 4.9.0 as the control, each given the same client properties through {@link PropertiesLimitProbe} (the normal
 * send site restated, then the store's own {@code asyncPutMessage}).
 *
 * <p>Blocks at and around the limit, measured on the TRIMMED block (no WAIT, no trailing separator: what patched 4.9.0
 * and 4.9.8 store): 32767 and 32768 bytes of ASCII; 2-byte, 3-byte and 4-byte (surrogate pair) UTF-8 so that the
 * String has at most 32767 chars but more than 32767 bytes; blocks whose untrimmed (stock 4.9.0) form exceeds 32767
 * while the trimmed form fits; more than 32767 chars. Asserted: each release's put status, that the broker answers
 * the same response code in patched 4.9.0 and 4.9.8 (each release's own
 * {@code SendMessageProcessor#handlePutMessageResult}; 4.9.8's compiled from Central's source release,
 * {@code Upstream498BrokerClasses}), and that an accepted message is stored as 4.9.8 stores it.
 */
@Tag(BuiltDistributions.LINE_TAG_PREFIX + "4.9.0")
class Upstream498PropertiesLimitTest {

    private static final String U1 = "UNIQ_KEY\0017F0000010B5718B4AAC2170C8D5000";

    /** One block: a name, the filler char (its UTF-8 width decides chars vs bytes), the trimmed size, the statuses. */
    record Case(String name, String filler, String waitValue, int trimmedBytes, String patched490, String upstream498, String stock490) {
    }

    static final List<Case> CASES = List.of(
        new Case("ASCII, trimmed 32756 (stock 4.9.0's untrimmed 32767)", "x", "true", 32756, "PUT_OK", "PUT_OK", "PUT_OK"),
        new Case("ASCII, trimmed 32757 (untrimmed 32768)", "x", "true", 32757, "PUT_OK", "PUT_OK", "MESSAGE_ILLEGAL"),
        new Case("ASCII, trimmed 32767 (untrimmed 32778)", "x", "true", 32767, "PUT_OK", "PUT_OK", "MESSAGE_ILLEGAL"),
        new Case("ASCII, trimmed 32767, WAIT=false (untrimmed 32779)", "x", "false", 32767, "PUT_OK", "PUT_OK", "MESSAGE_ILLEGAL"),
        new Case("ASCII, trimmed 32768", "x", "true", 32768, "MESSAGE_ILLEGAL", "MESSAGE_ILLEGAL", "MESSAGE_ILLEGAL"),
        new Case("ASCII, trimmed 40000", "x", "true", 40000, "MESSAGE_ILLEGAL", "MESSAGE_ILLEGAL", "MESSAGE_ILLEGAL"),
        new Case("2-byte \u00e9, trimmed 32767", "\u00e9", "true", 32767, "PUT_OK", "PUT_OK", "MESSAGE_ILLEGAL"),
        new Case("2-byte \u00e9, trimmed 32768", "\u00e9", "true", 32768, "MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED", "MESSAGE_ILLEGAL"),
        new Case("3-byte \u4e16, trimmed 32767", "\u4e16", "true", 32767, "PUT_OK", "PUT_OK", "MESSAGE_ILLEGAL"),
        new Case("3-byte \u4e16, trimmed 32768", "\u4e16", "true", 32768, "MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED", "MESSAGE_ILLEGAL"),
        new Case("3-byte \u4e16, trimmed 32769", "\u4e16", "true", 32769, "MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED", "MESSAGE_ILLEGAL"),
        new Case("4-byte \ud83d\ude00, trimmed 32768", "\ud83d\ude00", "true", 32768, "MESSAGE_ILLEGAL", "PROPERTIES_SIZE_EXCEEDED",
            "MESSAGE_ILLEGAL"));

    private static List<String> clientProperties;
    private static List<LimitPut> patched;
    private static List<LimitPut> upstream;
    private static List<LimitPut> stock;

    @BeforeAll
    static void putEveryCaseInEachStore() throws Exception {
        clientProperties = new ArrayList<>();
        for (int i = 0; i < CASES.size(); i++) {
            clientProperties.add(clientProperties(i, CASES.get(i)));
        }
        Path target = BuiltDistributions.target();
        patched = run(PatchedBrokerLoader.withProbe().load(PropertiesLimitProbe.class.getName()),
            Release.PATCHED_490, Files.createTempDirectory(target, "limit-store-patched490-"));
        try (Upstream498StoreLoader loader = Upstream498StoreLoader.create()) {
            upstream = run(loader.load(PropertiesLimitProbe.class.getName()), Release.UPSTREAM_498,
                Files.createTempDirectory(target, "limit-store-upstream498-"));
        }
        stock = new PropertiesLimitProbe().putAtLimit(Release.STOCK_490,
            Files.createTempDirectory(target, "limit-store-stock490-").toString(), clientProperties);
    }

    private static List<LimitPut> run(Class<?> probe, Release release, Path root) throws Exception {
        assertThat(probe).isNotSameAs(PropertiesLimitProbe.class);
        StoreLimit limit = (StoreLimit) probe.getConstructor().newInstance();
        return limit.putAtLimit(release, root.toString(), clientProperties);
    }

    @Test
    void theBlocksSitWhereTheyShould() {
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            String trimmed = trimmed(clientProperties.get(i));
            assertThat(trimmed.getBytes(StandardCharsets.UTF_8)).as(c.name()).hasSize(c.trimmedBytes());
            if (!c.filler().equals("x")) {
                assertThat(trimmed.length()).as("%s: chars <= 32767", c.name()).isLessThanOrEqualTo(Short.MAX_VALUE);
            }
            int untrimmed = MessageDecoder.messageProperties2String(withCluster(clientProperties.get(i))).getBytes(StandardCharsets.UTF_8).length;
            assertThat(untrimmed).as("%s: stock 4.9.0's block is WAIT and the trailing separator longer", c.name())
                .isEqualTo(c.trimmedBytes() + "WAIT\1\2\2".length() + c.waitValue().length());
        }
    }

    /** Each release's status as measured, and the same broker answer from patched 4.9.0 and 4.9.8. */
    @Test
    void patchedAnd498AnswerTheSameAtTheLimit() {
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            assertThat(patched.get(i).status()).as("%s: patched 4.9.0 status", c.name()).isEqualTo(c.patched490());
            assertThat(upstream.get(i).status()).as("%s: 4.9.8 status", c.name()).isEqualTo(c.upstream498());
            assertThat(stock.get(i).status()).as("%s: stock 4.9.0 status", c.name()).isEqualTo(c.stock490());
            int expectedCode = c.patched490().equals("PUT_OK") ? 0 : 13; // ResponseCode.SUCCESS / MESSAGE_ILLEGAL
            assertThat(patched.get(i).responseCode()).as("%s: patched 4.9.0's SendMessageProcessor answers", c.name())
                .isEqualTo(expectedCode);
            assertThat(upstream.get(i).responseCode()).as("%s: 4.9.8 answers the same", c.name())
                .isEqualTo(patched.get(i).responseCode());
            assertThat(stock.get(i).responseCode()).as("%s: stock 4.9.0's SendMessageProcessor", c.name())
                .isEqualTo(c.stock490().equals("PUT_OK") ? 0 : 13);
            System.out.println("[store 4.9.8 limit] " + c.name() + ": patched 4.9.0 " + patched.get(i).status() + ", 4.9.8 "
                + upstream.get(i).status() + ", stock 4.9.0 " + stock.get(i).status() + "; response code "
                + patched.get(i).responseCode());
        }
    }

    /** An accepted block is stored as 4.9.8 stores it (4.9.8's normal send stores no WAIT: equal, masked). */
    @Test
    void acceptedBlocksAreStoredAs498StoresThem() {
        for (int i = 0; i < CASES.size(); i++) {
            Case c = CASES.get(i);
            byte[] ours = patched.get(i).record();
            byte[] theirs = upstream.get(i).record();
            assertThat(ours == null).as("%s: stored iff PUT_OK", c.name()).isEqualTo(!c.patched490().equals("PUT_OK"));
            assertThat(theirs == null).as("%s: 4.9.8 stored iff PUT_OK", c.name()).isEqualTo(!c.upstream498().equals("PUT_OK"));
            if (ours != null) {
                assertThat(Upstream498StoreComparisonTest.withoutWait(theirs)).as("%s: 4.9.8 stores no WAIT here", c.name()).isEqualTo(theirs);
                assertThat(RecordLayout.masked(ours)).as(c.name()).isEqualTo(RecordLayout.masked(theirs));
                assertThat(ours.length).as(c.name()).isGreaterThan(c.trimmedBytes());
            }
        }
    }

    /**
     * A 4.9.0 client's properties (KEYS, UNIQ_KEY, WAIT, TAGS, one user property, trailing separator) whose trimmed
     * block (with the broker's CLUSTER) is exactly {@code trimmedBytes} long: the user value is filler chars, topped up
     * with ASCII.
     */
    private static String clientProperties(int i, Case c) {
        String head = "KEYS\1limit" + i + "\2" + U1 + String.format("%02d", i) + "\2WAIT\1" + c.waitValue() + "\2TAGS\1TagL\2hotpath.pad\1";
        // with a one-char value: 4.9.0's parse drops an entry whose value is empty
        int base = trimmed(head + "x\2").getBytes(StandardCharsets.UTF_8).length - 1;
        int rest = c.trimmedBytes() - base;
        int width = c.filler().getBytes(StandardCharsets.UTF_8).length;
        return head + c.filler().repeat(rest / width) + "x".repeat(rest % width) + "\2";
    }

    /** The trimmed block of the map the broker puts (client map + CLUSTER), as patched 4.9.0 and 4.9.8 store it. */
    private static String trimmed(String client) {
        Map<String, String> map = withCluster(client);
        map.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK);
        String block = MessageDecoder.messageProperties2String(map);
        return block.substring(0, block.length() - 1);
    }

    private static Map<String, String> withCluster(String client) {
        Map<String, String> map = MessageDecoder.string2messageProperties(client);
        map.put(MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        return map;
    }
}

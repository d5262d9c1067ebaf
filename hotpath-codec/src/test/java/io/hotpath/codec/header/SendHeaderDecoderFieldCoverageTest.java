package io.hotpath.codec.header;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.junit.jupiter.api.Test;

/**
 * Fails when the header classes on the classpath have a field the direct decoder does not set
 * (4.9.5 added V2 {@code n}/brokerName, 5.x moved fields into superclasses): every instance field,
 * up the class hierarchy, gets a distinct value in extFields, and the decoder must set each one to
 * it, as reflection does. Independent of {@link SendHeaderDecoderImpl#candidate()}: it checks ours.
 */
class SendHeaderDecoderFieldCoverageTest {

    @Test
    void setsEveryFieldOfTheV2HeaderClassLikeReflection() throws Exception {
        assertSetsEveryField(SendMessageRequestHeaderV2.class, SendHeaderDecoder::decodeV2,
            m -> SendHeaderDecoderImpl.reflection490().decodeV2(m));
    }

    @Test
    void setsEveryFieldOfTheV1HeaderClassLikeReflection() throws Exception {
        assertSetsEveryField(SendMessageRequestHeader.class, SendHeaderDecoder::decodeV1,
            m -> SendHeaderDecoderImpl.reflection490().decodeV1(m));
    }

    @Test
    void setsEveryV1FieldTheV2ToV1ConversionSets() throws Exception {
        List<Field> v2Fields = instanceFields(SendMessageRequestHeaderV2.class);
        HashMap<String, String> extFields = new HashMap<>();
        for (int i = 0; i < v2Fields.size(); i++) {
            extFields.put(v2Fields.get(i).getName(), String.valueOf(distinctValue(v2Fields.get(i), i)));
        }
        SendMessageRequestHeader fused = SendHeaderDecoder.decodeV2AsV1(extFields);
        SendMessageRequestHeader converted = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(
            SendHeaderDecoderImpl.reflection490().decodeV2(extFields));
        for (Field f : instanceFields(SendMessageRequestHeader.class)) {
            f.setAccessible(true);
            assertThat(f.get(fused)).as("V1 %s from V2 keys", f.getName()).isEqualTo(f.get(converted));
        }
    }

    @Test
    void theGeneratorsKnowEveryFieldInDeclarationOrder() {
        assertThat(names(instanceFields(SendMessageRequestHeaderV2.class))).containsExactly(SendHeaderArbitraries.V2_NAMES);
        assertThat(names(instanceFields(SendMessageRequestHeader.class))).containsExactly(SendHeaderArbitraries.V1_NAMES);
    }

    interface Decode {
        Object decode(HashMap<String, String> extFields) throws RemotingCommandException;
    }

    private static void assertSetsEveryField(Class<?> header, Decode ours, Decode reflection) throws Exception {
        List<Field> fields = instanceFields(header);
        HashMap<String, String> extFields = new HashMap<>();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Object value = distinctValue(fields.get(i), i);
            expected.add(value);
            extFields.put(fields.get(i).getName(), String.valueOf(value));
        }
        Object decoded = ours.decode(extFields);
        Object reflected = reflection.decode(extFields);
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            f.setAccessible(true);
            assertThat(f.get(decoded)).as("%s.%s set by the direct decoder", f.getDeclaringClass().getSimpleName(), f.getName())
                .isEqualTo(expected.get(i));
            assertThat(f.get(decoded)).as("%s.%s as reflection sets it", f.getDeclaringClass().getSimpleName(), f.getName())
                .isEqualTo(f.get(reflected));
        }
    }

    /** A value no other field gets and no default equals, of the field's type. */
    private static Object distinctValue(Field f, int index) {
        Class<?> type = f.getType();
        if (type == String.class) {
            return "value-of-" + f.getName();
        }
        if (type == Integer.class || type == int.class) {
            return 1000 + index;
        }
        if (type == Long.class || type == long.class) {
            return 1_700_000_000_000L + index;
        }
        if (type == Boolean.class || type == boolean.class) {
            return Boolean.TRUE;
        }
        if (type == Double.class || type == double.class) {
            return 0.5 + index;
        }
        throw new AssertionError("a field type reflection cannot decode: " + f);
    }

    /** Instance fields reflection would consider (not static, not this$...), subclass first, up the hierarchy. */
    static List<Field> instanceFields(Class<?> header) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = header; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith("this")) {
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    private static List<String> names(List<Field> fields) {
        List<String> names = new ArrayList<>();
        fields.forEach(f -> names.add(f.getName()));
        return names;
    }
}

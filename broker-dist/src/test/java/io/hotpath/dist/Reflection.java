/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.hotpath.dist;

import java.lang.reflect.Field;

/**
 * What the lever tests need to drive a line's classes, loaded by an {@link IsolatedLib} and so only reachable by
 * reflection: fields (also private, also a superclass's), objects made without their constructor (a store or controller
 * whose constructor would start a whole broker), and the answer of a proxy that stands in for a collaborator.
 */
final class Reflection {

    private Reflection() {
    }

    /** The field {@code name} of {@code type} or of its nearest superclass that declares it, made accessible. */
    static Field field(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        throw new NoSuchFieldException(type.getName() + "." + name);
    }

    /** An instance of {@code type} whose constructor did not run: every field at its default. */
    static Object allocate(Class<?> type) throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        return ((sun.misc.Unsafe) theUnsafe.get(null)).allocateInstance(type);
    }

    /** What a do-nothing proxy answers for {@code type}: null, false or zero. */
    static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        // unboxed by the proxy's caller into the primitive it returns
        return switch (type.getName()) {
            case "long" -> 0L;
            case "int" -> 0;
            case "double" -> 0.0;
            case "float" -> 0f;
            case "short" -> (short) 0;
            default -> (byte) 0;
        };
    }

    /** The wrapper class of a primitive type. */
    static Class<?> boxed(Class<?> primitive) {
        return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType();
    }
}

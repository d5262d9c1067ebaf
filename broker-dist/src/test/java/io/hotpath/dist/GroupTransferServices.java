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

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A line's {@code GroupTransferService}, loaded by an {@link IsolatedLib}, made the way the lever tests need it: over a
 * store never constructed (the service reads only its two configurations) and an {@code HAService} proxy that answers
 * the acknowledged offsets and the slave connections, so a test decides what the slaves have acknowledged.
 */
final class GroupTransferServices {

    static final String PKG = "org.apache.rocketmq.store.";

    private GroupTransferServices() {
    }

    /** A new service of {@code loader}'s classes, not started, over a store that answers {@code config}. */
    static Object create(ClassLoader loader, Object config, Object haService) throws ReflectiveOperationException {
        Class<?> storeType = Class.forName(PKG + "DefaultMessageStore", true, loader);
        Object store = Reflection.allocate(storeType);
        Reflection.field(storeType, "messageStoreConfig").set(store, config);
        Reflection.field(storeType, "brokerConfig").set(store,
            Class.forName("org.apache.rocketmq.common.BrokerConfig", true, loader).getConstructor().newInstance());
        Class<?> haType = Class.forName(PKG + "ha.HAService", true, loader);
        Class<?> serviceType = Class.forName(PKG + "ha.GroupTransferService", true, loader);
        return serviceType.getConstructor(haType, storeType).newInstance(haService, store);
    }

    /** An {@code HAService} of {@code loader} whose slaves have acknowledged {@code push2SlaveMaxOffset}, over {@code connections}. */
    static Object haService(ClassLoader loader, AtomicLong push2SlaveMaxOffset, List<Object> connections)
            throws ClassNotFoundException {
        Class<?> haType = Class.forName(PKG + "ha.HAService", true, loader);
        return Proxy.newProxyInstance(loader, new Class<?>[] {haType}, (proxy, method, args) ->
            switch (method.getName()) {
                case "getPush2SlaveMaxOffset" -> push2SlaveMaxOffset;
                case "getConnectionList" -> connections;
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "HAService proxy";
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}

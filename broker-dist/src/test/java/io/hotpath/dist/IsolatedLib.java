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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One source of a line's broker classes, a distribution's lib/ in a class loader of its own whose parent is the platform
 * loader, so nothing of the test class path's RocketMQ 4.9.0 leaks in and a stock and a patched class of the same name
 * run side by side. An oracle of 5.5.1 replaces lib/'s rocketmq-broker or rocketmq-store by Central's 5.5.1 jar (copied
 * to target/ by broker-dist/pom.xml, profile line-5.5.1), so upstream's own release, not our build of it, is compared.
 *
 * <p>Each source is loaded once per test JVM, when a test first asks for it (a lib/ of ~150 jars costs a loader's
 * metaspace); the tests that share one make their own objects of its classes and start and stop their own threads.
 */
final class IsolatedLib {

    static final String CENTRAL_BROKER_JAR = "upstream-551-rocketmq-broker.jar";
    static final String CENTRAL_STORE_JAR = "upstream-551-rocketmq-store.jar";

    final String name;
    final URLClassLoader loader;

    private IsolatedLib(String name, URL[] urls) {
        this.name = name;
        this.loader = new URLClassLoader(name, urls, ClassLoader.getPlatformClassLoader());
    }

    /** The stock distribution's lib/ (on 5.3.3, upstream's build of its source release). */
    static IsolatedLib stock() {
        return Stock.INSTANCE;
    }

    static IsolatedLib patched() {
        return Patched.INSTANCE;
    }

    /** Central's rocketmq-broker 5.5.1 over the stock lib/'s other jars. */
    static IsolatedLib centralBroker() {
        return CentralBroker.INSTANCE;
    }

    /** Central's rocketmq-store 5.5.1 over the stock lib/'s other jars. */
    static IsolatedLib centralStore() {
        return CentralStore.INSTANCE;
    }

    /** Central's rocketmq-broker and rocketmq-store 5.5.1 over the stock lib/'s other jars. */
    static IsolatedLib centralBrokerAndStore() {
        return CentralBrokerAndStore.INSTANCE;
    }

    /**
     * The oracle of a broker class: on 5.5.1 Central's rocketmq-broker (upstream's release, not our build of its assembled
     * tree); on 5.3.3 the stock lib/, upstream's build of its source release.
     */
    static IsolatedLib brokerOracle() {
        return BuiltDistributions.upstreamVersion().equals("5.5.1") ? centralBroker() : stock();
    }

    /** As {@link #brokerOracle()}, for a test of broker and store classes together. */
    static IsolatedLib brokerAndStoreOracle() {
        return BuiltDistributions.upstreamVersion().equals("5.5.1") ? centralBrokerAndStore() : stock();
    }

    private static final class Stock {
        static final IsolatedLib INSTANCE = new IsolatedLib("stock-lib", jars(BuiltDistributions.stock().resolve("lib"), Map.of()));
    }

    private static final class Patched {
        static final IsolatedLib INSTANCE = new IsolatedLib("patched-lib", jars(BuiltDistributions.patched().resolve("lib"), Map.of()));
    }

    private static final class CentralBroker {
        static final IsolatedLib INSTANCE = new IsolatedLib("central-rocketmq-broker-5.5.1", jars(BuiltDistributions.stock().resolve("lib"),
            Map.of("rocketmq-broker-", BuiltDistributions.target().resolve(CENTRAL_BROKER_JAR))));
    }

    private static final class CentralStore {
        static final IsolatedLib INSTANCE = new IsolatedLib("central-rocketmq-store-5.5.1", jars(BuiltDistributions.stock().resolve("lib"),
            Map.of("rocketmq-store-", BuiltDistributions.target().resolve(CENTRAL_STORE_JAR))));
    }

    private static final class CentralBrokerAndStore {
        static final IsolatedLib INSTANCE = new IsolatedLib("central-rocketmq-broker-store-5.5.1",
            jars(BuiltDistributions.stock().resolve("lib"), Map.of("rocketmq-broker-", BuiltDistributions.target().resolve(CENTRAL_BROKER_JAR),
                "rocketmq-store-", BuiltDistributions.target().resolve(CENTRAL_STORE_JAR))));
    }

    /** lib/'s jars; each jar of {@code replaced} (by file-name prefix) first, lib/'s jar of that prefix left out. */
    private static URL[] jars(Path lib, Map<String, Path> replaced) {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> files = Files.list(lib)) {
            for (Path jar : replaced.values()) {
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalStateException(jar + " is missing: broker-dist's build copies it (-Dhotpath.line=5.5.1)");
                }
                urls.add(jar.toUri().toURL());
            }
            for (Path jar : files.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                String file = jar.getFileName().toString();
                if (replaced.keySet().stream().noneMatch(file::startsWith)) {
                    urls.add(jar.toUri().toURL());
                }
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return urls.toArray(new URL[0]);
    }

    @Override
    public String toString() {
        return name;
    }
}

package io.hotpath.testkit;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * A class loader that takes the classes of the given package prefixes from its own URLs only, never from its parent, and
 * every other class from its parent first: an upstream module's own classes (e.g. a stock broker) beside whatever copy of
 * them the parent holds (a patched one), linked to the parent's shared classes so that values cross between the two.
 */
public final class OwnPackagesLoader extends URLClassLoader {
    private final List<String> ownPackages;

    public OwnPackagesLoader(List<URL> urls, ClassLoader parent, List<String> ownPackages) {
        super(urls.toArray(new URL[0]), parent);
        this.ownPackages = List.copyOf(ownPackages);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (ownPackages.stream().noneMatch(name::startsWith)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                type = findClass(name);
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }
}

package dev.hexaflow.adapters.nodes.code;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a JavaScript worker ({@link GraalJsWorker}) finds GraalJS, by the JDK it runs on.
 *
 * <p>The server's own class path holds GraalJS 23.1, the newest that runs on JDK 17. It fails on JDK 22 and later,
 * which removed a method of {@code sun.misc.Unsafe} it calls, and GraalJS 25 needs JDK 21. So on JDK 22 and later a
 * worker runs on GraalJS 25, whose jars the build keeps beside this class ({@code graaljs-newer/}, with Jackson for
 * the worker's JSON). A JVM cannot load a jar kept inside a jar, so they and the worker's class are copied, at the
 * first worker's start, into a directory of the server's own (owner-only, removed by {@link #close()}, or by the
 * next server's first copy if this one was killed). It holds GraalJS's own unpacked native library too.
 */
final class GraalJsClassPath implements AutoCloseable {

    /** The first JDK on which GraalJS 23.1 fails. */
    static final int NEWER_FROM = 22;
    private static final String BUNDLED = "graaljs-newer/";
    private static final String PREFIX = "hexaflow-graaljs-";
    private static final Pattern LEFTOVER = Pattern.compile(Pattern.quote(PREFIX) + "(\\d{1,18})-\\d+");

    private final List<String> options;
    private final List<String> entries;
    private final Path copied;

    private GraalJsClassPath(List<String> options, List<String> entries, Path copied) {
        this.options = List.copyOf(options);
        this.entries = List.copyOf(entries);
        this.copied = copied;
    }

    /** The class path for a worker on JDK {@code feature} (17, 25, ...). */
    static GraalJsClassPath forJdk(int feature) {
        if (feature < NEWER_FROM) {
            return new GraalJsClassPath(List.of(), serverClassPath(), null);
        }
        try {
            removeLeftovers();
            Path directory = Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-");
            try {
                List<String> entries = new ArrayList<>();
                Path classes = directory.resolve("classes");
                Path worker = classes.resolve(GraalJsWorker.class.getName().replace('.', '/') + ".class");
                Files.createDirectories(worker.getParent());
                try (InputStream in = GraalJsWorker.class.getResourceAsStream("GraalJsWorker.class")) {
                    if (in == null) {
                        throw new IOException("the worker's class is not a file of this build");
                    }
                    Files.copy(in, worker);
                }
                entries.add(classes.toString());
                for (Path jar : copyBundledJars(directory)) {
                    entries.add(jar.toString());
                }
                // Truffle 25 unpacks a native library of its own and loads it: into this directory, not a cache
                // under the user's home (or, with no home, one relative to the worker's directory, /tmp).
                List<String> options = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED",
                        "-Dpolyglot.engine.userResourceCache=" + directory.resolve("truffle-cache")));
                if (feature >= 23) {
                    // Truffle reads fields through sun.misc.Unsafe, which JDK 24 and later warn of on standard error.
                    options.add("--sun-misc-unsafe-memory-access=allow");
                }
                return new GraalJsClassPath(options, entries, directory);
            } catch (IOException | RuntimeException e) {
                delete(directory);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up GraalJS for JDK " + feature + ": " + e.getMessage(), e);
        }
    }

    /**
     * This class path if its files are all still there, else a new one: a cleaner of /tmp may remove files a
     * long-lived server has not read for days, and a worker started after that would find no class.
     */
    static GraalJsClassPath renewed(GraalJsClassPath current, int feature) {
        if (current != null && current.entries.stream().allMatch(entry -> Files.exists(Path.of(entry)))) {
            return current;
        }
        if (current != null) {
            current.close();
        }
        return forJdk(feature);
    }

    /** The JVM options a worker needs on this JDK, before its class path. */
    List<String> options() {
        return options;
    }

    /** The class path, as the {@code -cp} argument. */
    String asArgument() {
        return String.join(File.pathSeparator, entries);
    }

    /** The entries of the class path, in order. */
    List<String> entries() {
        return entries;
    }

    /** Removes the copied jars, if any. */
    @Override
    public void close() {
        if (copied != null) {
            delete(copied);
        }
    }

    /**
     * The JVM this server runs on's class path (the fat jar, or the test class path), made absolute so that the
     * worker's directory does not matter.
     */
    private static List<String> serverClassPath() {
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                classPath.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return classPath;
    }

    /**
     * Removes the copies of servers that ended without closing their runner (kill -9, a crash): each directory is
     * named by its server's process id. Another user's cannot be removed, and is left alone.
     */
    private static void removeLeftovers() {
        Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> all = Files.list(temporary)) {
            for (Path directory : all.toList()) {
                Matcher name = LEFTOVER.matcher(directory.getFileName().toString());
                if (name.matches() && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()
                        && !Files.isSymbolicLink(directory)
                        && Files.getOwner(directory).getName().equals(System.getProperty("user.name"))) {
                    delete(directory);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Leftovers are the operating system's to clear then; a new copy is made all the same.
        }
    }

    /** Copies the jars kept beside this class, from the fat jar or from a build's classes directory. */
    private static List<Path> copyBundledJars(Path directory) throws IOException {
        URL polyglot = GraalJsClassPath.class.getResource(BUNDLED + "polyglot.jar");
        if (polyglot == null) {
            throw new IOException("this build has no GraalJS for JDK " + NEWER_FROM + " and later");
        }
        List<Path> copied = new ArrayList<>();
        if (polyglot.getProtocol().equals("jar")) {
            JarURLConnection connection = (JarURLConnection) polyglot.openConnection();
            connection.setUseCaches(false);
            String prefix = connection.getEntryName().substring(0, connection.getEntryName().lastIndexOf('/') + 1);
            try (JarFile jar = connection.getJarFile()) {
                for (Enumeration<JarEntry> all = jar.entries(); all.hasMoreElements(); ) {
                    JarEntry entry = all.nextElement();
                    String name = entry.getName();
                    if (name.startsWith(prefix) && name.endsWith(".jar") && name.indexOf('/', prefix.length()) < 0) {
                        Path target = directory.resolve(name.substring(prefix.length()));
                        try (InputStream in = jar.getInputStream(entry)) {
                            Files.copy(in, target);
                        }
                        copied.add(target);
                    }
                }
            }
        } else {
            Path bundled;
            try {
                bundled = Path.of(polyglot.toURI()).getParent();
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
            try (Stream<Path> jars = Files.list(bundled)) {
                for (Path jar : jars.filter(path -> path.toString().endsWith(".jar")).sorted().toList()) {
                    copied.add(Files.copy(jar, directory.resolve(jar.getFileName().toString())));
                }
            }
        }
        return copied;
    }

    private static void delete(Path directory) {
        try (Stream<Path> all = Files.walk(directory)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // What is left is in the temporary directory, the operating system's to clear.
        }
    }
}

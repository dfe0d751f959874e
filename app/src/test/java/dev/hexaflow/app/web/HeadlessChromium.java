package dev.hexaflow.app.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver: both found on the machine (never downloaded),
 * so a test skips where they are not installed. Screenshots go to {@code target/screenshots/}.
 */
public final class HeadlessChromium {

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    /** Selenium warns on every start that it has no DevTools bindings for this Chromium; these tests use none. */
    private static final java.util.logging.Logger DEVTOOLS_LOG = quiet("org.openqa.selenium.devtools");

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.SEVERE);
        return logger;
    }

    private HeadlessChromium() {
    }

    /** The chromedriver and browser of this machine, if it has both. */
    public static Optional<Path[]> installed() {
        Optional<Path> driver = find("HEXAFLOW_CHROMEDRIVER", List.of("chromedriver"));
        Optional<Path> browser = find("HEXAFLOW_CHROMIUM", List.of("chromium", "chromium-browser"));
        if (driver.isEmpty() || browser.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Path[] {driver.get(), browser.get()});
    }

    private static Optional<Path> find(String variable, List<String> names) {
        String given = System.getenv(variable);
        if (given != null && !given.isBlank()) {
            return Optional.of(Path.of(given)).filter(Files::isExecutable);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(java.io.File.pathSeparator)).flatMap(dir -> names.stream()
                .map(name -> Path.of(dir, name))).filter(Files::isExecutable).findFirst();
    }

    /** A new headless browser with a window of the given size and a profile of its own. */
    public static ChromeDriver start(Path[] installed, Path profile, int width, int height) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(installed[1].toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(installed[0].toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        driver.manage().window().setSize(new Dimension(width, height));
        return driver;
    }

    /** Keeps a screenshot of the page as it is, as {@code target/screenshots/<name>.png}. */
    public static Path screenshot(ChromeDriver driver, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.redrive.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;

import org.eclipse.microprofile.config.ConfigProvider;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console tests' browser: Debian's chromium, driven by Debian's chromedriver (both paths are
 * given, so Selenium never looks for, or downloads, a browser or a driver of its own). One session
 * per boot's class loader, started on first use and quit when the test JVM exits, so browser test
 * classes share its start; {@link #login} begins with no cookies, so no class sees another's
 * session. Paths are the console's ({@code /console/...}) on the boot's HTTP port. Screenshots go
 * to target/console-screenshots/ for a person to look at.
 */
public final class Browser {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    static final Path SHOTS = Path.of("target", "console-screenshots");
    /** How long a page may take to show what a test waits for. */
    public static final Duration BOUND = Duration.ofSeconds(30);

    private static Browser session;

    private WebDriver driver;
    private Path profile;

    private Browser() {
    }

    /** The session (chromium starts at its first use, not here). */
    public static synchronized Browser session() {
        if (session == null) {
            session = new Browser();
        }
        return session;
    }

    /** The running chromium, started now if it isn't. */
    public synchronized WebDriver driver() {
        if (driver == null) {
            start();
        }
        return driver;
    }

    private void start() {
        try {
            profile = Files.createTempDirectory("redrive-chromium");
            Files.createDirectories(SHOTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        Runtime.getRuntime().addShutdownHook(new Thread(this::quit, "quit chromium"));
    }

    /** The boot's HTTP address, without a trailing slash. */
    public static String base() {
        String url = ConfigProvider.getConfig().getValue("test.url", String.class);
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** Opens a path of the boot ({@code /console/...}) or, starting with {@code http}, any address. */
    public void open(String pathOrUrl) {
        driver().get(pathOrUrl.startsWith("http") ? pathOrUrl : base() + pathOrUrl);
    }

    /** Logs in as one of {@link ApiUsers} through the login page the console sends an anonymous browser to. */
    public void login(String user) {
        WebDriver d = driver();
        // Cookies are deleted where they are visible: the console's have Path=/console.
        open("/console/login");
        d.manage().deleteAllCookies();
        open("/console");
        until(x -> x.getCurrentUrl().contains("/console/login"));
        d.findElement(By.name("j_username")).sendKeys(user);
        d.findElement(By.name("j_password")).sendKeys(ApiUsers.password(user));
        d.findElement(By.cssSelector("button[type=submit]")).click();
        until(x -> x.findElements(By.cssSelector(".who")).size() == 1);
    }

    /** Clicks what {@code by} finds, again if a self-refreshing part replaced it in between. */
    public void click(By by) {
        until(d -> {
            try {
                d.findElement(by).click();
                return true;
            } catch (StaleElementReferenceException e) {
                return false;
            }
        });
    }

    public <T> T until(ExpectedCondition<T> condition) {
        // Pages that refresh themselves (the overview, a running task) may replace an element between
        // the find and the read: that is "not yet", as a missing element is.
        return new WebDriverWait(driver(), BOUND).ignoring(StaleElementReferenceException.class).until(condition);
    }

    /**
     * The status of a form POST the page's own origin sends, as a script on it could (not bound by
     * the page's CSP).
     */
    public long post(String path, String form) {
        Object status = ((JavascriptExecutor) driver()).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "fetch(arguments[0], {method: 'POST', redirect: 'manual', credentials: 'same-origin',"
                        + " headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: arguments[1]})"
                        + ".then(r => done(r.status), e => done(-1));", base() + path, form);
        return (Long) status;
    }

    public void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) driver()).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private synchronized void quit() {
        if (driver == null) {
            return;
        }
        driver.quit();
        driver = null;
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind: nothing to fail the build for
        }
    }
}

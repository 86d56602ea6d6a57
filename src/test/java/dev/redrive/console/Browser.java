package dev.redrive.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's chromium, driven by Debian's chromedriver: both paths are given, so Selenium never
 * looks for (or downloads) a browser or a driver of its own. Screenshots go to
 * target/console-screenshots/ for a person to look at.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    static final Path SHOTS = Path.of("target", "console-screenshots");
    static final Duration BOUND = Duration.ofSeconds(30);

    final WebDriver driver;
    private final Path profile;

    Browser() throws IOException {
        profile = Files.createTempDirectory("redrive-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        Files.createDirectories(SHOTS);
    }

    void open(String url) {
        driver.get(url);
    }

    /** Logs in through the login page the console sends an anonymous browser to. */
    void login(String base, String user, String password) {
        // Cookies are deleted where they are visible: the console's have Path=/console.
        driver.get(base + "/console/login");
        driver.manage().deleteAllCookies();
        driver.get(base + "/console");
        until(d -> d.getCurrentUrl().contains("/console/login"));
        driver.findElement(By.name("j_username")).sendKeys(user);
        driver.findElement(By.name("j_password")).sendKeys(password);
        driver.findElement(By.cssSelector("button[type=submit]")).click();
        until(d -> d.findElements(By.cssSelector(".who")).size() == 1);
    }

    /** Clicks what {@code by} finds, again if a self-refreshing part replaced it in between. */
    void click(By by) {
        until(d -> {
            try {
                d.findElement(by).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        });
    }

    <T> T until(ExpectedCondition<T> condition) {
        // Pages that refresh themselves (the overview, a running task) may replace an element between
        // the find and the read: that is "not yet", as a missing element is.
        return new WebDriverWait(driver, BOUND).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(condition);
    }

    void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

Deno.test("loadConfig() applies the defaults", () => {
  const config = loadConfig({});
  assert.equal(config.port, 3001);
  assert.equal(config.host, "0.0.0.0");
  assert.equal(config.storageDir, "./storage");
  assert.equal(config.logLevel, "info");
  assert.equal(config.maxUploadBytes, 100 * 1024 * 1024);
  assert.equal(config.dev, false);
  assert.deepEqual(config.lockedSettings, {});
  assert.ok(Object.isFrozen(config));
});

Deno.test("loadConfig() reads the variables and the operator's fixed settings", () => {
  const config = loadConfig({
    PORT: "8080",
    HOST: "127.0.0.1",
    STORAGE_DIR: "/var/lib/lectern",
    LOG_LEVEL: "debug",
    MAX_UPLOAD_MB: "5",
    LLM_PROVIDER: "generic-openai",
    UNRELATED: "x",
  });
  assert.equal(config.port, 8080);
  assert.equal(config.host, "127.0.0.1");
  assert.equal(config.storageDir, "/var/lib/lectern");
  assert.equal(config.logLevel, "debug");
  assert.equal(config.maxUploadBytes, 5 * 1024 * 1024);
  assert.deepEqual(config.lockedSettings, { LLMProvider: "generic-openai" });
});

Deno.test("loadConfig() lists every bad variable at once", () => {
  assert.throws(
    () =>
      loadConfig({
        PORT: "eighty",
        LOG_LEVEL: "loud",
        MAX_UPLOAD_MB: "0",
        GENERIC_OPEN_AI_BASE_PATH: "nope",
      }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 4);
      assert.match(error.message, /PORT: PORT must be a whole number/);
      assert.match(error.message, /LOG_LEVEL: LOG_LEVEL must be one of debug, info, warn, error/);
      assert.match(error.message, /MAX_UPLOAD_MB: MAX_UPLOAD_MB must be at least 1/);
      assert.match(error.message, /GENERIC_OPEN_AI_BASE_PATH: URL is not a valid URL\./);
      return true;
    },
  );
});

Deno.test("loadConfig() bounds parsing: PARSE_TIMEOUT_SECONDS, PARSE_MEMORY_MB and PARSE_MAX_TEXT_MB", () => {
  assert.deepEqual(loadConfig({}).parse, { timeoutSeconds: 120, memoryMb: 1024, maxTextMb: 64 });
  assert.deepEqual(
    loadConfig({ PARSE_TIMEOUT_SECONDS: "5", PARSE_MEMORY_MB: "256", PARSE_MAX_TEXT_MB: "8" }).parse,
    { timeoutSeconds: 5, memoryMb: 256, maxTextMb: 8 },
  );
  assert.throws(
    () => loadConfig({ PARSE_TIMEOUT_SECONDS: "0", PARSE_MEMORY_MB: "16", PARSE_MAX_TEXT_MB: "0" }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PARSE_TIMEOUT_SECONDS must be at least 1/);
      assert.match(error.message, /PARSE_MEMORY_MB must be at least 64/);
      assert.match(error.message, /PARSE_MAX_TEXT_MB must be at least 1/);
      return true;
    },
  );
});

Deno.test("loadConfig() reads MEMORY_TRIM_GROWTH_MB: 32 by default, 0 turns the early trim off, words are refused", () => {
  assert.equal(loadConfig({}).memoryTrimGrowthMb, 32);
  assert.equal(loadConfig({ MEMORY_TRIM_GROWTH_MB: "0" }).memoryTrimGrowthMb, 0);
  assert.equal(loadConfig({ MEMORY_TRIM_GROWTH_MB: "64" }).memoryTrimGrowthMb, 64);
  assert.throws(
    () => loadConfig({ MEMORY_TRIM_GROWTH_MB: "lots" }),
    /MEMORY_TRIM_GROWTH_MB must be a whole number/,
  );
});

Deno.test("loadConfig() reads MEMORY_TRIM_SECONDS: 30 by default, 0 turns trimming off, words are refused", () => {
  assert.equal(loadConfig({}).memoryTrimSeconds, 30);
  assert.equal(loadConfig({ MEMORY_TRIM_SECONDS: "0" }).memoryTrimSeconds, 0);
  assert.throws(
    () => loadConfig({ MEMORY_TRIM_SECONDS: "often" }),
    /MEMORY_TRIM_SECONDS must be a whole number/,
  );
});

Deno.test("loadConfig() reads LLM_TIMEOUT_SECONDS: 600 by default, between 1 and 3600", () => {
  assert.equal(loadConfig({}).llmTimeoutSeconds, 600);
  assert.equal(loadConfig({ LLM_TIMEOUT_SECONDS: "30" }).llmTimeoutSeconds, 30);
  assert.throws(() => loadConfig({ LLM_TIMEOUT_SECONDS: "0" }), /LLM_TIMEOUT_SECONDS must be at least 1/);
  assert.throws(
    () => loadConfig({ LLM_TIMEOUT_SECONDS: "ten" }),
    /LLM_TIMEOUT_SECONDS must be a whole number/,
  );
});

Deno.test("loadConfig() reads CORS_ORIGINS as browser origins and refuses anything else", () => {
  assert.deepEqual(loadConfig({}).corsOrigins, []);
  assert.deepEqual(
    loadConfig({ CORS_ORIGINS: " https://App.Example.org/ , http://localhost:5173,https://app.example.org" })
      .corsOrigins,
    ["https://app.example.org", "http://localhost:5173"],
  );
  for (
    const bad of ["*", "null", "app.example.org", "https://app.example.org/chat", "ftp://files.example.org"]
  ) {
    assert.throws(
      () => loadConfig({ CORS_ORIGINS: `http://localhost:5173,${bad}` }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(
          error.message,
          new RegExp(
            `CORS_ORIGINS must list origins such as https://app\\.example\\.org .*not "${
              RegExp.escape(bad)
            }"`,
          ),
        );
        return true;
      },
      bad,
    );
  }
});

Deno.test("loadConfig() reads the scale-out variables: a libSQL server, the job lease, the rate limits", () => {
  const single = loadConfig({});
  assert.equal(single.database, null);
  assert.equal(single.rateLimits, "memory");
  assert.deepEqual(single.jobs, {
    replicaId: null,
    leaseSeconds: 30,
    maintenanceSeconds: 3600,
    settingsRefreshSeconds: 5,
  });

  const shared = loadConfig({
    DATABASE_URL: "libsql://lectern-org.turso.io",
    DATABASE_AUTH_TOKEN: "token",
    DATABASE_REPLICA_PATH: "/var/lib/lectern/replica.db",
    DATABASE_SYNC_SECONDS: "15",
    LECTERN_REPLICA_ID: "web-1",
    JOB_LEASE_SECONDS: "10",
  });
  assert.deepEqual(shared.database, {
    url: "libsql://lectern-org.turso.io",
    authToken: "token",
    replicaPath: "/var/lib/lectern/replica.db",
    syncSeconds: 15,
  });
  assert.equal(shared.rateLimits, "database", "replicas share the login limits by default");
  assert.equal(shared.jobs.replicaId, "web-1");
  assert.equal(shared.jobs.leaseSeconds, 10);
  assert.equal(
    loadConfig({ DATABASE_URL: "http://127.0.0.1:8080", RATE_LIMITS: "memory" }).rateLimits,
    "memory",
  );

  assert.throws(
    () => loadConfig({ DATABASE_URL: "postgres://db", DATABASE_REPLICA_PATH: "x", RATE_LIMITS: "redis" }),
    (error: ConfigError) =>
      error.problems.some((problem) =>
        problem.startsWith("DATABASE_URL: DATABASE_URL must be a libsql://")
      ) &&
      error.problems.some((problem) => problem.startsWith("RATE_LIMITS:")),
  );
  assert.throws(
    () => loadConfig({ DATABASE_AUTH_TOKEN: "token" }),
    (error: ConfigError) => error.problems.includes("DATABASE_AUTH_TOKEN: it needs DATABASE_URL."),
  );
});

/** Workspace env-var names: POSIX names pass; malformed ones and every reserved family are refused with the rule; toolEnvOf drops and says what. */
import { describe, expect, test } from 'bun:test';
import { droppedToolEnv, envKeyFormatProblem, envKeyProblem, toolEnvOf } from './env-var-rules.ts';

describe('env var names', () => {
  test('POSIX names pass; reserved, malformed and long ones are refused with a reason', () => {
    for (const ok of ['A', '_x', 'API_KEY_2', 'my_k6_vus', 'TARGET_URL', 'PS_API_KEY', 'HTTPS_PROXY', 'SSL_CERT_FILE', 'DEBUG', 'GOOGLE_KEY', 'HISTOGRAM_BUCKETS']) {
      expect(envKeyProblem(ok), ok).toBeNull();
    }
    for (const bad of ['', '2A', 'A-B', 'A B', 'PATH', 'Home', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'LOADPLANE_X', 'BASH_FUNC_x%%', 'X'.repeat(129)]) {
      expect(envKeyProblem(bad), bad).not.toBeNull();
    }
  });

  test('the names the audit found missing are refused, each naming its rule', () => {
    const found = {
      SHELLOPTS: 'SHELLOPTS is read by the shell',
      PS4: 'PS4 is read by the shell',
      BASHOPTS: 'BASH* is read by the shell',
      PROMPT_COMMAND: 'PROMPT_COMMAND is read by the shell',
      JAVA_OPTS: 'JAVA_* is read by Java',
      MAVEN_OPTS: 'MAVEN_* is read by Java',
      PERL5LIB: 'PERL* is read by Perl',
      PYTHONHOME: 'PYTHON* is read by Python',
      PYTHONWARNINGS: 'PYTHON* is read by Python',
      GCONV_PATH: 'GCONV_PATH is read by the C library',
      NODE_PATH: 'NODE_* is read by a JavaScript runtime',
      HOSTALIASES: 'HOSTALIASES is read by the C library',
      TMPDIR: 'TMPDIR is read by the C library',
    };
    for (const [key, rule] of Object.entries(found)) {
      expect(envKeyProblem(key), key).toStartWith(`key ${key} is reserved: ${rule}`);
    }
  });

  test('every family: the agent, the service, libc and the loader, the shell, interpreters and runtimes, the engines', () => {
    const families: Record<string, string[]> = {
      'set by the agent itself': ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TERM', 'NO_COLOR', 'FORCE_COLOR', 'lc_all'],
      'belongs to the service': ['LOADPLANE_TASK_ID', 'loadplane_anything'],
      'the C library, the dynamic loader or OpenSSL': ['LD_LIBRARY_PATH', 'LD_AUDIT', 'GETCONF_DIR', 'LOCALDOMAIN', 'LOCPATH', 'MALLOC_TRACE', 'MALLOC_ARENA_MAX', 'NIS_PATH', 'NLSPATH', 'RESOLV_HOST_CONF', 'RES_OPTIONS', 'TZDIR', 'GLIBC_TUNABLES', 'OPENSSL_CONF'],
      'read by the shell': ['BASH_ENV', 'BASH_XTRACEFD', 'ENV', 'IFS', 'CDPATH', 'GLOBIGNORE', 'HISTFILE', 'PS1', 'PS2', 'PS3', 'POSIXLY_CORRECT', 'TMOUT', 'ZDOTDIR'],
      'read by Python': ['PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONUNBUFFERED'],
      'read by Ruby': ['RUBYOPT', 'RUBYLIB', 'GEM_HOME', 'BUNDLE_GEMFILE'],
      'read by a JavaScript runtime': ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'npm_config_registry', 'BUN_INSTALL', 'DENO_DIR'],
      'read by Java': ['JAVA_TOOL_OPTIONS', 'JAVA_HOME', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'JVM_ARGS', 'HEAP', 'GRADLE_OPTS'],
      'read by the Go runtime': ['GODEBUG', 'GOMAXPROCS', 'GOTRACEBACK'],
      'read by a load engine': ['K6_OUT', 'K6_LOG_FORMAT', 'k6_VUS', 'LOCUST_JSON', 'JMETER_HOME', 'GATLING_CONF', 'ARTILLERY_PLUGINS'],
    };
    for (const [rule, keys] of Object.entries(families)) {
      for (const key of keys) expect(envKeyProblem(key), key).toContain(rule);
    }
  });

  test('a malformed name is a format problem; a reserved one is not (it may have been stored before its rule)', () => {
    expect(envKeyFormatProblem('A-B')).toContain('not an environment variable name');
    expect(envKeyFormatProblem('PYTHONHOME')).toBeNull();
  });
});

describe('toolEnvOf and droppedToolEnv', () => {
  test('toolEnvOf drops what an agent must not pass on, whatever the wire says', () => {
    expect(toolEnvOf({ GOOD: 'v', PATH: '/evil', LD_PRELOAD: 'x.so', 'BAD-NAME': 'v', NUL: 'a\0b', PYTHONHOME: 'x' })).toEqual({ GOOD: 'v' });
    expect(toolEnvOf(undefined)).toEqual({});
  });

  test('droppedToolEnv names each dropped variable with why, never its value; a malformed name is quoted and cut', () => {
    const dropped = droppedToolEnv({ GOOD: 'v', PYTHONHOME: 'secret-home', NUL: 'a\0b', ['X-'.repeat(50)]: 'v' });
    expect(dropped).toEqual([
      { key: 'PYTHONHOME', reason: 'PYTHON* is read by Python (Locust runs on it)' },
      { key: 'NUL', reason: 'its value holds a NUL character' },
      { key: JSON.stringify('X-'.repeat(32)), reason: 'not an environment variable name of at most 128 characters' },
    ]);
    expect(JSON.stringify(dropped)).not.toContain('secret-home');
    expect(droppedToolEnv(undefined)).toEqual([]);
  });
});

/**
 * The environment names a workspace may not set, by family rather than one by one: every name that a shell, an
 * interpreter or runtime an engine runs on, the C library or dynamic loader, or a load engine reads as its own
 * configuration, plus what the agent sets itself and LOADPLANE_*. A denylist of single names was a losing game
 * (PYTHONHOME=x broke every Python run; SHELLOPTS=xtrace or PS4 changed every shell script): a family is refused
 * whole, by its prefix where it has one, so a name the reader adds next year is refused already.
 */

/** One family: the names (exact) and prefixes it covers, and why they are refused, as shown in a 400 and in a run's log. */
interface NameFamily {
  names?: readonly string[];
  prefixes?: readonly string[];
  /** Completes "<NAME or PREFIX*> ...". */
  why: string;
}

/**
 * Compared without case: shells and runtimes read these names in capitals, but npm also reads npm_config_* and
 * libraries differ on http_proxy/HTTP_PROXY; refusing `Path` as well as `PATH` costs nobody anything.
 */
const families: readonly NameFamily[] = [
  {
    // The tool's locale, home, search path and terminal output are the agent's: it reads the output as UTF-8 plain
    // text (LANG=C.UTF-8, no colour), and the sandbox points HOME at the run's work directory.
    names: ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TZ', 'SHELL', 'USER', 'LOGNAME', 'PWD', 'OLDPWD', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE'],
    prefixes: ['LC_'],
    why: 'is set by the agent itself and cannot be overridden',
  },
  { prefixes: ['LOADPLANE_'], why: 'belongs to the service (the run facts the agent passes to every tool)' },
  {
    // glibc's unsecure-environment list (sysdeps/generic/unsecvars.h: what ld.so strips for setuid programs), the
    // macOS loader, and OpenSSL's config and module paths: each loads code or changes name resolution in any tool.
    names: ['GCONV_PATH', 'GETCONF_DIR', 'HOSTALIASES', 'LOCALDOMAIN', 'LOCPATH', 'NIS_PATH', 'NLSPATH', 'RESOLV_HOST_CONF', 'RES_OPTIONS', 'TMPDIR', 'TZDIR'],
    prefixes: ['LD_', 'DYLD_', 'MALLOC_', 'GLIBC_', 'OPENSSL_'],
    why: 'is read by the C library, the dynamic loader or OpenSSL',
  },
  {
    // bash and sh read these at start-up or while running a script (a custom tool's script, and the engines' launchers).
    names: [
      'ENV', 'IFS', 'CDPATH', 'GLOBIGNORE', 'GLOBSORT', 'SHELLOPTS', 'POSIXLY_CORRECT', 'PS0', 'PS1', 'PS2', 'PS3', 'PS4',
      'PROMPT_COMMAND', 'PROMPT_DIRTRIM', 'HISTCMD', 'HISTCONTROL', 'HISTFILE', 'HISTFILESIZE', 'HISTIGNORE', 'HISTSIZE',
      'HISTTIMEFORMAT', 'HOSTFILE', 'INPUTRC', 'EXECIGNORE', 'FIGNORE', 'FCEDIT', 'FUNCNEST', 'MAIL', 'MAILCHECK',
      'MAILPATH', 'OPTERR', 'OPTIND', 'TIMEFORMAT', 'TMOUT', 'SHLVL', 'COLUMNS', 'LINES', 'CHILD_MAX', 'ZDOTDIR', 'FPATH',
    ],
    // BASH covers BASH_ENV, BASHOPTS, BASH_FUNC_*, BASH_XTRACEFD, BASH_COMPAT ...
    prefixes: ['BASH', 'COMP_'],
    why: 'is read by the shell',
  },
  { prefixes: ['PYTHON'], why: 'is read by Python (Locust runs on it)' },
  { prefixes: ['PERL'], why: 'is read by Perl' },
  { prefixes: ['RUBY', 'GEM_', 'BUNDLE_'], why: 'is read by Ruby' },
  { prefixes: ['NODE_', 'NPM_CONFIG_', 'BUN_', 'DENO_'], why: 'is read by a JavaScript runtime (Artillery runs on Node.js)' },
  {
    names: ['CLASSPATH', 'JVM_ARGS', 'HEAP', 'GC_ALGO'],
    prefixes: ['JAVA_', 'JDK_', '_JAVA_', 'MAVEN_', 'GRADLE_'],
    why: 'is read by Java or a JVM launcher (JMeter and Gatling run on it)',
  },
  { names: ['GODEBUG', 'GOGC', 'GOMEMLIMIT', 'GOMAXPROCS', 'GOTRACEBACK'], why: 'is read by the Go runtime (k6 runs on it)' },
  {
    // Each engine reads these as options besides its command line (K6_OUT, K6_LOG_FORMAT, LOCUST_JSON ...): they
    // would change what the engine prints, which the agent parses for the run's figures.
    prefixes: ['K6_', 'LOCUST_', 'JMETER_', 'GATLING_', 'ARTILLERY_'],
    why: 'is read by a load engine as its own configuration, which the agent sets',
  },
];

const exact = new Map<string, string>();
const byPrefix: { prefix: string; why: string }[] = [];
for (const family of families) {
  for (const name of family.names ?? []) exact.set(name, family.why);
  for (const prefix of family.prefixes ?? []) byPrefix.push({ prefix, why: family.why });
}

/** The rule that reserves `key` ("PYTHON* is read by Python ..."), or null when a workspace may set it. */
export function reservedEnvRule(key: string): string | null {
  const upper = key.toUpperCase();
  const why = exact.get(upper);
  if (why) return `${upper} ${why}`;
  const family = byPrefix.find(({ prefix }) => upper.startsWith(prefix));
  return family ? `${family.prefix}* ${family.why}` : null;
}

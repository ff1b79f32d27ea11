/**
 * Gatling simulations as test scripts, checked on the server without a JVM: one Java source file (Gatling's Java DSL,
 * io.gatling.javaapi) declaring a class that extends Simulation and calls setUp(...). Its class name (with its package)
 * is what Gatling runs, and the file name javac wants.
 */

export interface GatlingSimulation {
  /** The simple class name: the source file is `<className>.java`. */
  className: string;
  /** The fully qualified name Gatling is told to run (`-s`). */
  qualifiedName: string;
  /** Whether the simulation declares assertions: Gatling checks them from its simulation.log after the run. */
  hasAssertions: boolean;
}

// Comments and string literals hide nothing from the checks below, but must not fake them either.
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');

const simulationClass = /\bclass\s+([A-Za-z_$][\w$]*)\s*(?:<[^>{]*>\s*)?extends\s+(?:io\.gatling\.javaapi\.core\.)?Simulation\b/;
const packageDeclaration = /^\s*package\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*;/m;
const scalaHints = /\bimport\s+io\.gatling\.(?:core|http)\.Predef\._|^\s*(?:object|val|def)\s|\bextends\s+Simulation\s*\{[^}]*\bval\s/m;

/** The simulation a script declares, or the message of a 400 saying what is wrong with it. */
export function parseGatlingScript(script: string): GatlingSimulation | string {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  const source = withoutComments(script);
  const found = simulationClass.exec(source);
  if (!found) {
    if (scalaHints.test(source)) {
      return 'Scala simulations are not supported: write the simulation in Java with Gatling\'s Java DSL (io.gatling.javaapi.core.*), a class extending Simulation';
    }
    return 'a Gatling simulation must declare a Java class extending Simulation (public class MySimulation extends Simulation { ... })';
  }
  if (!/\bimport\s+(?:static\s+)?io\.gatling\.javaapi\./.test(source) && !/\bio\.gatling\.javaapi\.core\.Simulation\b/.test(source)) {
    if (scalaHints.test(source)) {
      return 'Scala simulations are not supported: write the simulation in Java with Gatling\'s Java DSL (io.gatling.javaapi.core.*)';
    }
    return 'a Gatling simulation must use Gatling\'s Java DSL: import io.gatling.javaapi.core.* (and io.gatling.javaapi.http.* for HTTP)';
  }
  if (!/\bsetUp\s*\(/.test(source)) {
    return `the simulation ${found[1]} must call setUp(...) with its scenarios' injection profiles (in an initializer block or its constructor)`;
  }
  const className = found[1]!;
  const pkg = packageDeclaration.exec(source)?.[1];
  return { className, qualifiedName: pkg ? `${pkg}.${className}` : className, hasAssertions: /\.\s*assertions\s*\(/.test(source) };
}

export function validateGatlingScript(script: string): string | null {
  const parsed = parseGatlingScript(script);
  return typeof parsed === 'string' ? parsed : null;
}

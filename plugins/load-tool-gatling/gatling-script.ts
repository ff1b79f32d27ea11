/**
 * Gatling simulations as test scripts, checked on the server without a JVM: one source file declaring a class that
 * extends Simulation and calls setUp(...), in Java (Gatling's Java DSL, io.gatling.javaapi) or Scala (its Scala DSL,
 * io.gatling.core.Predef._). Its class name (with its package) is what Gatling runs, and names the source file.
 */

export type SimulationLanguage = 'java' | 'scala';

export interface GatlingSimulation {
  language: SimulationLanguage;
  /** The simple class name: the source file is `<className>.java` or `<className>.scala`. */
  className: string;
  /** The fully qualified name Gatling is told to run (`-s`). */
  qualifiedName: string;
  /** Whether the simulation declares assertions: Gatling checks them from its simulation.log after the run. */
  hasAssertions: boolean;
}

// Comments must neither hide nor fake what the checks below look for.
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');

const identifier = '[A-Za-z_$][\\w$]*';
const simulationClass = new RegExp(`\\bclass\\s+(${identifier})\\s*(?:<[^>{]*>\\s*|\\[[^\\]{]*\\]\\s*)?(?:\\([^)]*\\)\\s*)?extends\\s+(?:io\\.gatling\\.(?:javaapi\\.)?core\\.(?:Predef\\.)?)?Simulation\\b`);
const packageDeclaration = new RegExp(`^\\s*package\\s+(${identifier}(?:\\.${identifier})*)\\s*;?\\s*$`, 'm');
const javaDsl = /\bimport\s+(?:static\s+)?io\.gatling\.javaapi\.|\bio\.gatling\.javaapi\.core\.Simulation\b/;
const scalaDsl = /\bimport\s+io\.gatling\.core\.Predef\.(?:_|\*)/;

/** The simulation a script declares, or the message of a 400 saying what is wrong with it. */
export function parseGatlingScript(script: string): GatlingSimulation | string {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  const source = withoutComments(script);
  const language: SimulationLanguage | null = javaDsl.test(source) ? 'java' : scalaDsl.test(source) ? 'scala' : null;
  const found = simulationClass.exec(source);
  if (!found) {
    return 'a Gatling simulation must declare a class extending Simulation (Java: public class MySimulation extends Simulation { ... }; Scala: class MySimulation extends Simulation { ... })';
  }
  if (!language) {
    return "a Gatling simulation must use one of Gatling's DSLs: Java (import io.gatling.javaapi.core.*) or Scala (import io.gatling.core.Predef._)";
  }
  if (!/\bsetUp\s*\(/.test(source)) {
    return `the simulation ${found[1]} must call setUp(...) with its scenarios' injection profiles`;
  }
  const className = found[1]!;
  const pkg = packageDeclaration.exec(source)?.[1];
  return { language, className, qualifiedName: pkg ? `${pkg}.${className}` : className, hasAssertions: /\.\s*assertions\s*\(/.test(source) };
}

export function validateGatlingScript(script: string): string | null {
  const parsed = parseGatlingScript(script);
  return typeof parsed === 'string' ? parsed : null;
}

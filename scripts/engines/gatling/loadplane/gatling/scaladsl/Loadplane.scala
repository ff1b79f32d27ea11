/* What a Scala simulation uses to take the task's load config: the same closed injection steps as the Java helper
 * (loadplane.gatling.Loadplane), with Gatling's Scala DSL. Compiled by scripts/engines/gatling.sh with scalac. */
package loadplane.gatling.scaladsl

import scala.concurrent.duration._

import io.gatling.core.Predef._
import io.gatling.core.controller.inject.closed.ClosedInjectionStep

object Loadplane {

  /** This machine's share of the task's load as closed-model steps; `fallback` when the task has no load config. */
  def closedInjection(fallback: ClosedInjectionStep*): Seq[ClosedInjectionStep] = {
    val plan = loadplane.gatling.Loadplane.plan()
    if (plan == null) fallback
    else {
      val constant = System.getProperty("loadplane.stages") == null
      plan.toSeq.map { step =>
        if (constant) constantConcurrentUsers(step(1).toInt).during(step(0).millis)
        else rampConcurrentUsers(step(1).toInt).to(step(2).toInt).during(step(0).millis)
      }
    }
  }

  /** Whether the task has a load config (else the simulation's own injection rules). */
  def configured: Boolean = loadplane.gatling.Loadplane.configured()

  /** This machine's place among the task's machines (0-based) and their count. */
  def machineIndex: Int = loadplane.gatling.Loadplane.machineIndex()

  def machineCount: Int = loadplane.gatling.Loadplane.machineCount()
}

import { analyzeReportTask } from "./tasks/analyze-report";
import { exportTask } from "./tasks/export";
import { generateReportTask } from "./tasks/generate-report";
import { processPhoto } from "./tasks/process-photo";
import { sweepPending } from "./tasks/sweep-pending";
import type { TaskList } from "graphile-worker";

// Tasks are registered in code: graphile-worker cannot load .ts task files on Node 20.
export const taskList: TaskList = {
  process_photo: processPhoto,
  sweep_pending: sweepPending,
  excel_export: exportTask,
  pdf_export: exportTask,
  analyze_report: analyzeReportTask,
  generate_report: generateReportTask,
};

export const crontab = "* * * * * sweep_pending ?max=1";

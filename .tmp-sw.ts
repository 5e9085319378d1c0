import fs from "node:fs";
import ExcelJS from "exceljs";
import { createWorkbook, SheetWriter } from "~/services/xlsx-writer.server";
const N = +process.argv[2];
let peak = 0; const iv = setInterval(()=>{peak=Math.max(peak,process.memoryUsage().rss)},50);
const t0 = Date.now();
const out = fs.createWriteStream("/tmp/xl/sw.xlsx");
const wb = createWorkbook(out);
const sw = new SheetWriter(wb, "Logs & <stuff>", [
  {header:"Storage",kind:"text"},{header:"Measurement",kind:"int"},{header:"Taken",kind:"date",numFmt:"yyyy-mm-dd hh:mm"},{header:"Log",kind:"int"},
  {header:"Diameter (cm)",kind:"number",numFmt:"0.0"},{header:"Length (m)",kind:"number",numFmt:"0.00"},{header:"Volume (m³)",kind:"number",numFmt:"0.000"},{header:"Assortment",kind:"text"},{header:"Cull",kind:"text"}]);
const d = new Date();
for (let i=0;i<N;i++){ sw.add(["Storage <A> & co", Math.floor(i/100), d, i%100+1, 20+(i%30)/10, 3, 0.123456, "Spruce sawlog", i%7?null:"Rot"]); if (i%2000===0) await sw.drain(); }
sw.commit(); await wb.commit();
await new Promise(r => out.on("close", r));
clearInterval(iv);
console.log(N, Date.now()-t0, "ms", Math.round(peak/1e6), "MB", fs.statSync("/tmp/xl/sw.xlsx").size);
if (N <= 50000) { const r = new ExcelJS.Workbook(); await r.xlsx.readFile("/tmp/xl/sw.xlsx"); const ws = r.worksheets[0]; console.log(ws.name, ws.rowCount, ws.getRow(1).values, ws.getRow(2).values, ws.getRow(8).values, ws.getCell("G2").numFmt, ws.views); }

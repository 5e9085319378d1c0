import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { StorageEditor } from "~/components/timber/storage-editor";
import { storageEditorAction, storageEditorLoader } from "~/components/timber/storage-editor.server";
import { parseId } from "~/utils/api.server";

export const handle = { i18n: ["timber"] };
export const loader = ({ request, params }: LoaderFunctionArgs) => storageEditorLoader(request, parseId(params.id));
export const action = ({ request, params }: ActionFunctionArgs) => storageEditorAction(request, parseId(params.id));
export default StorageEditor;
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

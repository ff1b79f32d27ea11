/** The shared UI pieces, in one import: PageHeader, EmptyState, ErrorNotice, Loading, StatusBadge, ConfirmButton, CopyButton, useDocumentTitle, formatters. */
export { PageHeader } from './page-header';
export { EmptyState } from './empty-state';
export { ErrorNotice, errorMessage } from './error-notice';
export { Loading } from './loading';
export { StatusBadge } from './status-badge';
export { ConfirmButton } from './confirm-button';
export { CopyButton } from './copy-button';
export { useDocumentTitle } from './use-document-title';
export * from './formatters';

import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import './components.css';

/** Props of {@link Dialog}. */
export interface DialogProps {
  /** The dialog's heading, which also names it. */
  title: string;
  /** Whether it is open (controlled by the caller). */
  open: boolean;
  /** Called when the dialog asks to close: Escape, a click outside (unless `alert`). */
  onOpenChange: (open: boolean) => void;
  /** An alert dialog (role alertdialog): a decision is asked for, a click outside does not dismiss it. */
  alert?: boolean;
  /** The content brings its own visible heading: the title only names the dialog for assistive technology. */
  titleInContent?: boolean;
  children: ReactNode;
}

/**
 * A modal dialog (React Aria): focus moves into it and stays there, Escape closes it, focus returns to the control
 * that opened it, the rest of the page is inert for assistive technology. Scroll locking sets the root element's
 * style property (allowed by the page's CSP, unlike an injected style element).
 */
export function Dialog({
  title,
  open,
  onOpenChange,
  alert = false,
  titleInContent = false,
  children,
}: DialogProps) {
  return (
    <ModalOverlay
      className="dialog-overlay"
      isOpen={open}
      onOpenChange={onOpenChange}
      isDismissable={!alert}
      isKeyboardDismissDisabled={false}
    >
      <Modal className="dialog">
        <AriaDialog
          role={alert ? 'alertdialog' : 'dialog'}
          className="dialog-body"
          {...(titleInContent ? { 'aria-label': title } : {})}
        >
          {!titleInContent && (
            <Heading slot="title" className="dialog-title">
              {title}
            </Heading>
          )}
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
